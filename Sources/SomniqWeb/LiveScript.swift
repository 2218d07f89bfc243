/// /static/live.js: tonight's page fetches itself every 5 s and swaps in the parts marked
/// `data-live` that changed (the status, the night so far), leaving a playing clip alone.
/// Served from the binary: the page loads nothing from outside the box, and its
/// content-security-policy allows no inline script.
enum LiveScript {
    static let text = """
    "use strict";
    (function () {
      var busy = false;
      function playing(el) {
        return Array.prototype.some.call(el.querySelectorAll("audio"), function (a) { return !a.paused; });
      }
      function update() {
        if (busy || document.hidden) return;
        busy = true;
        fetch(location.pathname, { cache: "no-store", credentials: "same-origin" })
          .then(function (r) { return r.ok ? r.text() : null; })
          .then(function (text) {
            if (text === null) return;
            var fresh = new DOMParser().parseFromString(text, "text/html");
            fresh.querySelectorAll("[data-live]").forEach(function (part) {
              var old = document.getElementById(part.id);
              if (!old || old.innerHTML === part.innerHTML || playing(old)) return;
              old.replaceWith(document.importNode(part, true));
            });
            document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + 1);
          })
          .catch(function () {})
          .then(function () { busy = false; });
      }
      setInterval(update, 5000);
    })();

    """
}
