/** Where the local stack serves Swagger UI's files from its installed package (see swagger-ui-assets.ts). */
export const LOCAL_RENDERER = "/_local/docs";

/**
 * The API reference page: Swagger UI, loaded from `rendererBase` (the local stack's own copy unless told
 * otherwise), rendering `/_local/openapi.json`.
 */
export function apiReferencePage(rendererBase: string = LOCAL_RENDERER): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <title>effectively-once API reference</title>
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <link rel="icon" href="data:," />
  <link rel="stylesheet" href="${rendererBase}/swagger-ui.css" />
</head>
<body>
  <div id="app"><p style="font-family:sans-serif;margin:2em">Loading the API reference… The raw document is at
    <a href="/_local/openapi.yaml">/_local/openapi.yaml</a> and <a href="/_local/openapi.json">/_local/openapi.json</a>.</p></div>
  <script src="${rendererBase}/swagger-ui-bundle.js"
    onerror="document.querySelector('#app p').insertAdjacentText('afterbegin', 'The renderer could not be loaded. ')"></script>
  <script>
    // validatorUrl: null keeps the page from sending the document to swagger.io's validator; the base layout
    // has no top bar, whose only use is to load another document.
    if (window.SwaggerUIBundle)
      window.ui = SwaggerUIBundle({
        url: "/_local/openapi.json",
        dom_id: "#app",
        presets: [SwaggerUIBundle.presets.apis],
        layout: "BaseLayout",
        validatorUrl: null,
        deepLinking: true,
      });
  </script>
</body>
</html>
`;
}
