// Kindling memory browser: served as a file (the CSP forbids inline script). Progressive only:
// every page works without it. "/" focuses the search box.
"use strict";
document.addEventListener("keydown", function (event) {
  var target = event.target;
  var typing = target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA");
  if (event.key === "/" && !typing) {
    var box = document.querySelector("main input[type=search]") ||
      document.querySelector("nav input[type=search]");
    if (box) {
      event.preventDefault();
      box.focus();
    }
  }
});
