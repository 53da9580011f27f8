// The flow of scripts/check-clients on openapi-generator's typescript-axios client, generated with default options
// (issue 39): upload a PDF, form-fields (a job with output.data), and the file's content, which is binary: with
// { responseType: "arraybuffer" } it is the file byte for byte; without it axios decodes it as text and it comes back
// corrupted (what docs/openapi-and-mcp.md tells). Arguments: base URL, API key, PDF path. Compiled with tsconfig.json
// beside it into the generated client's folder (as flow.ts).
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { Configuration, FilesApi, JobStatusEnum, OperationsApi } from "./index";

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

async function main([base, key, path]: string[]): Promise<void> {
  const config = new Configuration({ basePath: base, accessToken: key });
  const files = new FilesApi(config);
  const bytes = await readFile(path);
  const upload = (await files.uploadFile(new File([bytes], basename(path)))).data;

  const fields = (await new OperationsApi(config).listFormFields({ file: upload.id })).data;
  const data = fields.output?.data as { fields?: unknown } | undefined;
  check(fields.status === JobStatusEnum.Succeeded && Array.isArray(data?.fields), `form-fields gives output.data.fields: ${JSON.stringify(fields)}`);

  const binary = await files.getFileContent(upload.id, { responseType: "arraybuffer" });
  check(Buffer.from(binary.data as unknown as ArrayBuffer).equals(bytes), "with responseType arraybuffer the content is the file");
  const decoded = await files.getFileContent(upload.id);
  check(typeof decoded.data === "string" && !Buffer.from(decoded.data as string, "utf8").equals(bytes),
    "without responseType the content is decoded as text and is not the file");
  console.log("typescript-axios: upload, form-fields (output.data), content (arraybuffer) OK");
}

main(process.argv.slice(2)).catch((e) => {
  console.error(e);
  process.exit(1);
});
