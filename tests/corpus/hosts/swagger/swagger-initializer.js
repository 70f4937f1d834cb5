// Our host configuration for the npm package swagger-ui-dist (as its docker image writes this file): our own small
// OpenAPI document, served beside it, whose operations a stub server of ours answers under /api/.
window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: 'openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout'
  });
};
