// The flow of scripts/check-clients (issue 13) on openapi-generator's typescript-fetch client, generated with default
// options: upload a PDF, rotate it, compress with wait 0 (202), poll the job, download through download_url (no key).
// Arguments: base URL, API key, PDF path. Compiled with tsconfig.json beside it into the generated client's folder.
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { Configuration, FilesApi, JobsApi, OperationsApi, JobStatusEnum, RotateRequestAngleEnum } from "./index";

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

async function main([base, key, path]: string[]): Promise<void> {
  const config = new Configuration({ basePath: base, accessToken: key });
  const operations = new OperationsApi(config);
  const jobs = new JobsApi(config);

  const bytes = await readFile(path);
  const upload = await new FilesApi(config).uploadFile({ file: new File([bytes], basename(path)) });
  const rotated = await operations.rotatePdf({ rotateRequest: { file: upload.id, angle: RotateRequestAngleEnum.NUMBER_90 } });
  check(rotated.status === JobStatusEnum.Succeeded, `rotate succeeded: ${JSON.stringify(rotated)}`);

  const accepted = await operations.compressPdfRaw({ compressRequest: { file: rotated.output!.files[0].id, wait: 0 } });
  check(accepted.raw.status === 202, `compress with wait 0 answers 202, not ${accepted.raw.status}`);
  let job = await accepted.value();
  for (let i = 0; i < 240 && job.status !== JobStatusEnum.Succeeded && job.status !== JobStatusEnum.Failed; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    job = await jobs.getJob({ id: job.id });
  }
  check(job.status === JobStatusEnum.Succeeded, `compress succeeded: ${JSON.stringify(job)}`);

  const pdf = await fetch(job.output!.files[0].downloadUrl);
  const head = Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString("latin1");
  check(pdf.status === 200 && head === "%PDF-", "download_url gives the PDF");
  console.log("typescript-fetch: upload, rotate, compress (202, polled), download OK");
}

main(process.argv.slice(2)).catch((e) => {
  console.error(e);
  process.exit(1);
});
