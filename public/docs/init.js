// Starts Swagger UI on /docs. A file of its own (not inline) so the page's CSP can be script-src 'self'.
window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  // No call to the public validator service: the page makes same-origin requests only.
  validatorUrl: null,
});
