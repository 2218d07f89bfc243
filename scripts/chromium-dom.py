#!/usr/bin/env python3
"""Loads a page in Debian's headless chromium and prints its DOM as it stands at given
moments, in real time: what the web page's tests use to see tonight's page update itself.

    scripts/chromium-dom.py URL 1 8     # the DOM 1 s and 8 s after the page loaded

Each DOM is printed whole, preceded by a line `=== DOM at N s`. chromium's
--dump-dom runs the page in virtual time, which passes in an instant: the page's timers
fire but the server it fetches from has not moved on. This asks chromium itself, over
the DevTools protocol (a WebSocket; RFC 6455 framing, written out below, since the
standard library has no client), after the seconds have really passed.
"""
import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request


def websocket(url):
    """A connected WebSocket to ws://HOST:PORT/PATH (no TLS, no extensions)."""
    rest = url[len("ws://"):]
    hostport, path = rest.split("/", 1)
    host, port = hostport.split(":")
    sock = socket.create_connection((host, int(port)), timeout=30)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            raise OSError("the DevTools socket closed during the handshake")
        head += chunk
    if not head.startswith(b"HTTP/1.1 101"):
        raise OSError("no WebSocket: " + head.decode(errors="replace"))
    return sock


def send(sock, text):
    data = text.encode()
    mask = os.urandom(4)
    n = len(data)
    header = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n) if n < 65536
                              else bytes([0x80 | 127]) + struct.pack(">Q", n))
    sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))


def exactly(sock, n):
    out = b""
    while len(out) < n:
        chunk = sock.recv(n - len(out))
        if not chunk:
            raise OSError("the DevTools socket closed")
        out += chunk
    return out


def receive(sock):
    """The next whole text message (fragments joined; control frames skipped)."""
    message = b""
    while True:
        b0, b1 = exactly(sock, 2)
        n = b1 & 0x7F
        if n == 126:
            n = struct.unpack(">H", exactly(sock, 2))[0]
        elif n == 127:
            n = struct.unpack(">Q", exactly(sock, 8))[0]
        payload = exactly(sock, n)
        if b0 & 0x0F in (0x8, 0x9, 0xA):
            continue
        message += payload
        if b0 & 0x80:
            return message.decode()


def main():
    url, moments = sys.argv[1], [float(s) for s in sys.argv[2:]] or [1.0]
    profile = tempfile.mkdtemp(prefix="somniq-chromium-")
    browser = subprocess.Popen(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                f"--user-data-dir={profile}", "--remote-debugging-port=0", "--window-size=390,844", url],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port_file = os.path.join(profile, "DevToolsActivePort")
        deadline = time.time() + 30
        while not os.path.exists(port_file) or not open(port_file).read().strip():
            if time.time() > deadline or browser.poll() is not None:
                sys.exit("chromium did not start")
            time.sleep(0.05)
        port = open(port_file).read().split()[0]
        loaded = time.time()
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10))
        page = next(t for t in targets if t.get("type") == "page")
        sock = websocket(page["webSocketDebuggerUrl"])
        for k, moment in enumerate(moments):
            time.sleep(max(0.0, loaded + moment - time.time()))
            send(sock, json.dumps({"id": k + 1, "method": "Runtime.evaluate",
                                   "params": {"expression": "document.documentElement.outerHTML", "returnByValue": True}}))
            while True:
                reply = json.loads(receive(sock))
                if reply.get("id") == k + 1:
                    break
            print(f"=== DOM at {moment:g} s")
            print(reply["result"]["result"]["value"])
        sock.close()
    finally:
        browser.terminate()
        try:
            browser.wait(timeout=10)
        except subprocess.TimeoutExpired:
            browser.kill()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
