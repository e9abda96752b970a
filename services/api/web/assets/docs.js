// /docs: sends a "Try it" form's request with the key typed into it and shows the answer. The reference
// itself is server-rendered; without this script the forms say so and the curl lines do the same.
(function () {
  'use strict';
  var forms = document.querySelectorAll('form.try');
  if (!forms.length || !window.fetch || !window.URLSearchParams) return;
  // Headers worth seeing beside the body: the key's usage and the response's paging and validators.
  var SHOWN = ['content-type', 'content-range', 'etag', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-used'];

  forms.forEach(function (form) {
    var fieldset = form.querySelector('fieldset');
    var notice = form.querySelector('[data-needs-script]');
    var status = form.querySelector('.try-status');
    var output = form.querySelector('pre.response');
    if (fieldset) fieldset.disabled = false;
    if (notice) notice.hidden = true;

    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var path = form.getAttribute('data-path');
      var query = new URLSearchParams();
      form.querySelectorAll('[data-in]').forEach(function (field) {
        var value = field.value.trim();
        if (field.getAttribute('data-in') === 'path') path = path.replace('{' + field.name + '}', encodeURIComponent(value));
        else if (value !== '') query.append(field.name, value);
      });
      var url = path + (query.toString() ? '?' + query.toString() : '');
      var key = form.elements.apiKey ? form.elements.apiKey.value.trim() : '';
      status.textContent = 'Sending GET ' + url + '…';
      fetch(url, { headers: key ? { 'X-API-Key': key } : {}, cache: 'no-store' }).then(function (res) {
        return res.text().then(function (text) {
          var lines = ['HTTP ' + res.status + ' ' + res.statusText];
          SHOWN.forEach(function (name) {
            var value = res.headers.get(name);
            if (value !== null) lines.push(name + ': ' + value);
          });
          var body = text;
          try {
            body = JSON.stringify(JSON.parse(text), null, 2);
          } catch (e) {
            // not JSON: shown as it came
          }
          output.firstChild.textContent = lines.join('\n') + '\n\n' + body;
          output.hidden = false;
          status.textContent = 'GET ' + url + ': ' + res.status + ' ' + res.statusText + '. The response is below.';
        });
      }, function (error) {
        status.textContent = 'The request could not be sent: ' + error.message;
      });
    });
  });

  // One key for every form: typed into one, it fills the others.
  document.addEventListener('input', function (event) {
    var target = event.target;
    if (!target || target.name !== 'apiKey') return;
    document.querySelectorAll('input[name="apiKey"]').forEach(function (input) {
      if (input !== target) input.value = target.value;
    });
  });
})();
