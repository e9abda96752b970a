// Starts Swagger UI (served from our own origin) on the API's OpenAPI description.
(function () {
  'use strict';
  var root = document.getElementById('swagger-ui');
  if (!root || typeof window.SwaggerUIBundle !== 'function') return;
  var fallback = document.getElementById('docs-fallback');
  if (fallback) fallback.hidden = true;
  window.SwaggerUIBundle({
    url: root.getAttribute('data-spec-url'),
    domNode: root,
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    // The default validator badge loads an image from validator.swagger.io: no third-party requests.
    validatorUrl: null,
    tryItOutEnabled: false,
    persistAuthorization: false,
  });
})();
