-- Webhook signing secrets are stored sealed with AES-GCM under the master key (issue 10); the sealed form is longer.
ALTER TABLE accounts ALTER COLUMN webhook_secret SET DATA TYPE VARCHAR(400);
