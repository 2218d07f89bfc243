#!/usr/bin/env python3
"""Loads pages one after another in one headless chromium, as a phone or a desktop shows
them, and prints per page, as a JSON line, how wide its content is laid out: what the web
page's tests use to check that no page scrolls sideways on a phone.

    scripts/chromium-layout.py --size 390x844 --mobile URL...
    scripts/chromium-layout.py --size 1280x900 --header "Authorization: Bearer T" URL...

Each line holds the URL, `scrollWidth` (document.documentElement's), `width` (the emulated
screen's: a phone's browser widens its window to content wider than the screen, so the
content is compared with the screen, never with innerWidth), `widest` (the element whose
right edge lies furthest right, when it is past the screen), `audio` (each clip player's
width and whether its play button is drawn) and, with --eval, what an expression gave.
Every <details> is opened first, so that what it holds is measured too (the episode form).
The device is emulated over the DevTools protocol (Emulation.setDeviceMetricsOverride,
with `mobile` the meta viewport is honoured as on a phone); the WebSocket client is
chromium-dom.py's.
"""
import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
chromium_dom = __import__("chromium-dom")

MEASURE = r"""
(function () {
  document.querySelectorAll("details").forEach(function (d) { d.open = true; });
  var width = screen.width, root = document.documentElement;
  var widest = null, right = width;
  document.querySelectorAll("body *").forEach(function (el) {
    var r = el.getBoundingClientRect();
    if (r.width > 0 && r.right + window.scrollX > right + 0.5) {
      right = r.right + window.scrollX;
      widest = el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className && el.className.baseVal === undefined ? "." + el.className : "") + " " + Math.round(r.right + window.scrollX);
    }
  });
  var audio = Array.prototype.map.call(document.querySelectorAll("audio"), function (a) {
    return Math.round(a.getBoundingClientRect().width);
  });
  return JSON.stringify({scrollWidth: root.scrollWidth, width: width, innerWidth: window.innerWidth,
                         widest: widest, audio: audio, title: document.title, extra: EXTRA});
})()
"""


class DevTools:
    """Calls over the DevTools socket; the events that come between replies are kept."""
    def __init__(self, sock):
        self.sock, self.next_id, self.events = sock, 0, []

    def call(self, method, params=None):
        self.next_id += 1
        chromium_dom.send(self.sock, json.dumps({"id": self.next_id, "method": method, "params": params or {}}))
        while True:
            reply = json.loads(chromium_dom.receive(self.sock))
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise OSError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply["method"])

    def load(self, url):
        """Navigates to `url` and waits for its load event."""
        self.events = []
        self.call("Page.navigate", {"url": url})
        while "Page.loadEventFired" not in self.events:
            reply = json.loads(chromium_dom.receive(self.sock))
            if "method" in reply:
                self.events.append(reply["method"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", default="390x844")
    parser.add_argument("--mobile", action="store_true")
    parser.add_argument("--header", action="append", default=[])
    parser.add_argument("--eval", default="null", help="a JavaScript expression whose value each line carries as `extra`")
    parser.add_argument("--screenshot", metavar="DIR", help="also save each page whole, as it was measured, to DIR/page-N.png")
    parser.add_argument("urls", nargs="+")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    profile = tempfile.mkdtemp(prefix="somniq-chromium-")
    browser = subprocess.Popen(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
                                f"--user-data-dir={profile}", "--remote-debugging-port=0", f"--window-size={width},{height}",
                                "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port_file = os.path.join(profile, "DevToolsActivePort")
        deadline = time.time() + 30
        while not os.path.exists(port_file) or not open(port_file).read().strip():
            if time.time() > deadline or browser.poll() is not None:
                sys.exit("chromium did not start")
            time.sleep(0.05)
        port = open(port_file).read().split()[0]
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10))
        page = next(t for t in targets if t.get("type") == "page")
        tools = DevTools(chromium_dom.websocket(page["webSocketDebuggerUrl"]))
        tools.call("Page.enable")
        tools.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "mobile": args.mobile,
                                                          "deviceScaleFactor": 3 if args.mobile else 1,
                                                          "screenWidth": width, "screenHeight": height})
        if args.mobile:
            tools.call("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
        if args.header:
            tools.call("Network.enable")
            tools.call("Network.setExtraHTTPHeaders", {"headers": dict(h.split(": ", 1) for h in args.header)})
        for url in args.urls:
            tools.load(url)
            result = tools.call("Runtime.evaluate", {"expression": MEASURE.replace("EXTRA", args.eval), "returnByValue": True})
            if "exceptionDetails" in result:
                sys.exit(f"{url}: {result['exceptionDetails']}")
            line = json.loads(result["result"]["value"])
            line["url"] = url
            print(json.dumps(line), flush=True)
            if args.screenshot:
                shot = tools.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
                with open(os.path.join(args.screenshot, f"page-{len(os.listdir(args.screenshot))}.png"), "wb") as f:
                    f.write(base64.b64decode(shot["data"]))
        tools.sock.close()
    finally:
        browser.terminate()
        try:
            browser.wait(timeout=10)
        except subprocess.TimeoutExpired:
            browser.kill()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
