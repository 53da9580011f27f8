// The API reference page (reference.html): Swagger UI renders the service's own OpenAPI document, relative to this
// page so it works behind a path prefix; "Try it out" calls the servers the document names, with the key given in
// "Authorize".
window.addEventListener("load", () => {
  window.SwaggerUIBundle({
    url: new URL("v1/openapi.json", document.baseURI).href,
    dom_id: "#reference",
    deepLinking: true,
    tryItOutEnabled: false,
  });
});
