// Progressive enhancement only: every page works without this script.
(function () {
  'use strict';
  // A refused form's summary carries autofocus; where a browser does not honour it on a div, focus it here.
  var summary = document.querySelector('[data-focus]');
  if (summary && document.activeElement !== summary) summary.focus();
  // Lists folded by language open on a wide screen, where they fit; on a phone they stay folded.
  if (window.matchMedia && window.matchMedia('(min-width: 48rem)').matches) {
    document.querySelectorAll('details.fold').forEach(function (details) { details.open = true; });
  }
  // A link to share in full: the page's origin written before its path (the server does not know its public name).
  document.querySelectorAll('a[data-full-link]').forEach(function (link) {
    link.textContent = location.origin + link.getAttribute('data-full-link');
  });
  // Copy buttons: <button data-copy="element-id" hidden> is revealed only where the script runs.
  document.querySelectorAll('button[data-copy]').forEach(function (button) {
    var target = document.getElementById(button.getAttribute('data-copy'));
    var status = document.getElementById(button.getAttribute('data-copy') + '-status');
    if (!target) return;
    button.hidden = false;
    button.addEventListener('click', function () {
      var text = target.textContent.trim();
      var done = function (message) {
        if (status) status.textContent = message;
      };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(
          function () { done('Copied to the clipboard.'); },
          function () { selectText(target); done('Selected: press Ctrl+C (or ⌘C) to copy.'); }
        );
      } else {
        selectText(target);
        done('Selected: press Ctrl+C (or ⌘C) to copy.');
      }
    });
  });
  function selectText(element) {
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
})();
