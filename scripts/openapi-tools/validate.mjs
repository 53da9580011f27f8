// Validates an OpenAPI document with @apidevtools/swagger-parser (structure against the OpenAPI 3.1 schema,
// $refs resolvable). Usage: node validate.mjs <openapi.json>
import SwaggerParser from "@apidevtools/swagger-parser";

const file = process.argv[2];
try {
  const api = await SwaggerParser.validate(file);
  console.log(`swagger-parser: ${file} is a valid OpenAPI ${api.openapi} document (${Object.keys(api.paths).length} paths)`);
} catch (e) {
  console.error(`swagger-parser: ${file} is not valid: ${e.message}`);
  process.exit(1);
}
