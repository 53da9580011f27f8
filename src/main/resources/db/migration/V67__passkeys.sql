-- Passkeys of the developer area (issue 26 item 5): Spring Security's JdbcPublicKeyCredentialUserEntityRepository and
-- JdbcUserCredentialRepository, with the schema their reference documents. Portable between H2 2.x and PostgreSQL 15:
-- BYTEA (H2's alias of VARBINARY) where the documented schema has BLOB, as the repository binds plain bytes.

-- The WebAuthn user of an account: a random id (base64url) and the account's email as its name.
CREATE TABLE user_entities (
    id            VARCHAR(1000) NOT NULL,
    name          VARCHAR(320)  NOT NULL,
    display_name  VARCHAR(320),
    PRIMARY KEY (id)
);
CREATE UNIQUE INDEX user_entities_name ON user_entities(name);

-- One row per passkey: the public key (COSE) and what the authenticator reported; never a private key.
CREATE TABLE user_credentials (
    credential_id                 VARCHAR(1000) NOT NULL,
    user_entity_user_id           VARCHAR(1000) NOT NULL REFERENCES user_entities(id),
    public_key                    BYTEA         NOT NULL,
    signature_count               BIGINT,
    uv_initialized                BOOLEAN,
    backup_eligible               BOOLEAN       NOT NULL,
    authenticator_transports      VARCHAR(1000),
    public_key_credential_type    VARCHAR(100),
    backup_state                  BOOLEAN       NOT NULL,
    attestation_object            BYTEA,
    attestation_client_data_json  BYTEA,
    created                       TIMESTAMP,
    last_used                     TIMESTAMP,
    label                         VARCHAR(1000) NOT NULL,
    PRIMARY KEY (credential_id)
);
CREATE INDEX user_credentials_user ON user_credentials(user_entity_user_id);
