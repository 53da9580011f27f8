// The flow of scripts/check-clients (issue 13) on openapi-generator's typescript-fetch client, generated with default
// options: upload a PDF, rotate it, compress with wait 0 (202), poll the job, download through download_url (no key).
// Then form-fields (output.data), a rotate whose webhook fails (an address nothing listens on) and a jobs page (issue 39).
// Arguments: base URL, API key, PDF path, webhook URL. Compiled with tsconfig.json beside it into the generated client's folder.
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { Configuration, FilesApi, JobsApi, OperationsApi, JobStatusEnum, RotateRequestAngleEnum } from "./index";

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

async function main([base, key, path, hookUrl]: string[]): Promise<void> {
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

  const fields = await operations.listFormFields({ formFieldsRequest: { file: upload.id } });
  const data = fields.output?.data as { fields?: unknown } | undefined;
  check(fields.status === JobStatusEnum.Succeeded && Array.isArray(data?.fields), `form-fields gives output.data.fields: ${JSON.stringify(fields)}`);

  let hooked = await operations.rotatePdf({ rotateRequest: { file: upload.id, angle: RotateRequestAngleEnum.NUMBER_180, webhookUrl: hookUrl } });
  for (let i = 0; i < 240 && !hooked.webhook?.attempts.length; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    hooked = await jobs.getJob({ id: hooked.id });
  }
  const attempt = hooked.webhook?.attempts[0];
  check(attempt !== undefined && attempt.statusCode === null && typeof attempt.error === "string", `the failed webhook attempt is recorded: ${JSON.stringify(hooked)}`);

  const ids = (await jobs.listJobs({ limit: 100 })).data.map((j) => j.id);
  check([rotated.id, job.id, fields.id, hooked.id].every((id) => ids.includes(id)), `GET /jobs lists the jobs: ${ids}`);
  console.log("typescript-fetch: upload, rotate, compress (202, polled), download, form-fields (output.data), failed webhook attempt, jobs page OK");
}

main(process.argv.slice(2)).catch((e) => {
  console.error(e);
  process.exit(1);
});
