// Two-step sign-in: password first, then a TOTP code when the account has two-factor authentication.
(function () {
  "use strict";
  const passwordStep = document.getElementById("password-step");
  const otpStep = document.getElementById("otp-step");
  const errorBox = document.querySelector('[data-testid="login-error"]');
  const email = document.getElementById("email");
  const password = document.getElementById("password");
  const otp = document.getElementById("otp");
  // Set when the server rendered the second step itself (a sign-in posted before this script ran).
  let challengeId = document.getElementById("challenge-id").value || null;

  function destination() {
    const next = passwordStep.dataset.next || "/dashboard";
    return next.startsWith("/") && !next.startsWith("//") ? next : "/dashboard";
  }

  function showError(message, field) {
    errorBox.textContent = message;
    errorBox.hidden = false;
    for (const input of [email, password, otp]) input.removeAttribute("aria-invalid");
    if (field) {
      field.setAttribute("aria-invalid", "true");
      field.setAttribute("aria-describedby", "login-error");
      field.focus();
    }
  }

  function clearError() {
    errorBox.hidden = true;
    errorBox.textContent = "";
  }

  async function busy(button, work) {
    button.disabled = true;
    try {
      await work();
    } finally {
      button.disabled = false;
    }
  }

  passwordStep.addEventListener("submit", (event) => {
    event.preventDefault();
    clearError();
    if (!email.value.trim()) return showError("Enter your email address.", email);
    if (!password.value) return showError("Enter your password.", password);
    busy(passwordStep.querySelector("button[type=submit]"), async () => {
      const { ok, data } = await lumen.api("POST", "/api/login", { email: email.value.trim(), password: password.value });
      if (!ok) return showError(data.error || "Sign-in failed. Try again.", password);
      if (data.status === "2fa_required") {
        challengeId = data.challengeId;
        passwordStep.hidden = true;
        otpStep.hidden = false;
        otp.value = "";
        otp.focus();
        return;
      }
      window.location.assign(destination());
    });
  });

  otpStep.addEventListener("submit", (event) => {
    event.preventDefault();
    clearError();
    const code = otp.value.replace(/\s+/g, "");
    if (!/^\d{6}$/.test(code)) return showError("Enter the 6-digit code from your authenticator app.", otp);
    busy(otpStep.querySelector("button[type=submit]"), async () => {
      const { ok, data } = await lumen.api("POST", "/api/verify-2fa", { challengeId, code });
      if (!ok) {
        otp.select();
        return showError(data.error || "Verification failed. Try again.", otp);
      }
      window.location.assign(destination());
    });
  });

  document.querySelector('[data-testid="otp-cancel-button"]').addEventListener("click", () => {
    clearError();
    challengeId = null;
    otpStep.hidden = true;
    passwordStep.hidden = false;
    password.value = "";
    email.focus();
  });
})();
