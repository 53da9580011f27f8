// Passkeys in the developer area (issue 26 item 5): the browser's WebAuthn calls against Spring Security's endpoints.
// Binary fields travel as base64url in JSON, as Spring Security writes and reads them. The CSRF token comes from the
// page's <meta name="_csrf"> and <meta name="_csrf_header">.
(() => {
  const bytes = s => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), c => c.charCodeAt(0));
  const text = b => btoa(String.fromCharCode(...new Uint8Array(b))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const meta = name => document.querySelector('meta[name="' + name + '"]').content;

  async function post(path, body) {
    const response = await fetch(path, {
      method: 'POST', credentials: 'same-origin',
      headers: {'Content-Type': 'application/json', [meta('_csrf_header')]: meta('_csrf')},
      body: body === undefined ? undefined : JSON.stringify(body)
    });
    if (response.status === 429) throw new Error('Too many sign-in attempts: wait a minute and try again.');
    if (!response.ok) throw new Error(response.status === 401 ? 'This passkey was not accepted.' : 'The server answered ' + response.status + '.');
    return response.json();
  }

  function show(element, message) {
    element.textContent = message;
    element.hidden = false;
  }

  // Account page: a new passkey for the signed-in owner, named by the label field; the page reloads to list it.
  async function register(form) {
    const problem = document.getElementById('passkey-problem');
    problem.hidden = true;
    try {
      const options = await post(form.dataset.optionsUrl);
      options.challenge = bytes(options.challenge);
      options.user.id = bytes(options.user.id);
      (options.excludeCredentials || []).forEach(c => c.id = bytes(c.id));
      const credential = await navigator.credentials.create({publicKey: options});
      const result = await post(form.dataset.registerUrl, {
        publicKey: {
          label: form.elements.label.value,
          credential: {
            id: credential.id, rawId: text(credential.rawId), type: credential.type,
            authenticatorAttachment: credential.authenticatorAttachment,
            clientExtensionResults: credential.getClientExtensionResults(),
            response: {
              attestationObject: text(credential.response.attestationObject),
              clientDataJSON: text(credential.response.clientDataJSON),
              transports: credential.response.getTransports ? credential.response.getTransports() : []
            }
          }
        }
      });
      if (!result.success) throw new Error('The passkey was not saved.');
      window.location.assign(form.dataset.doneUrl);
    } catch (e) {
      show(problem, 'No passkey registered: ' + e.message);
    }
  }

  // Sign-in page: any passkey of this site the authenticator holds (discoverable), no email asked.
  async function signIn(button) {
    const problem = document.getElementById('passkey-problem');
    problem.hidden = true;
    try {
      const options = await post(button.dataset.optionsUrl);
      options.challenge = bytes(options.challenge);
      (options.allowCredentials || []).forEach(c => c.id = bytes(c.id));
      const credential = await navigator.credentials.get({publicKey: options});
      const result = await post(button.dataset.signinUrl, {
        id: credential.id, rawId: text(credential.rawId), type: credential.type,
        authenticatorAttachment: credential.authenticatorAttachment,
        clientExtensionResults: credential.getClientExtensionResults(),
        response: {
          authenticatorData: text(credential.response.authenticatorData),
          clientDataJSON: text(credential.response.clientDataJSON),
          signature: text(credential.response.signature),
          userHandle: credential.response.userHandle ? text(credential.response.userHandle) : null
        }
      });
      if (!result.authenticated) throw new Error('This passkey was not accepted.');
      window.location.assign(result.redirectUrl);
    } catch (e) {
      show(problem, 'Passkey sign-in failed: ' + e.message);
    }
  }

  document.addEventListener('DOMContentLoaded', () => {
    const form = document.getElementById('passkey-register');
    if (form) form.addEventListener('submit', e => { e.preventDefault(); register(form); });
    const button = document.getElementById('passkey-signin');
    if (button) button.addEventListener('click', () => signIn(button));
    if (!window.PublicKeyCredential) {
      document.querySelectorAll('.passkeys-supported').forEach(e => e.hidden = true);
    }
  });
})();
