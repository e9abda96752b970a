// Progressive enhancement only: every page works without this script.
(function () {
  'use strict';
  // A refused form's summary carries autofocus; where a browser does not honour it on a div, focus it here.
  var summary = document.querySelector('[data-focus]');
  if (summary && document.activeElement !== summary) summary.focus();
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
