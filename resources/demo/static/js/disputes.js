// The three-step dispute wizard: validates each step in place, then files the dispute with POST /api/disputes.
(function () {
  "use strict";
  const form = document.getElementById("dispute-form");
  const progress = document.querySelector('[data-testid="wizard-progress"]');
  const summary = document.querySelector('[data-testid="error-summary"]');
  const backButton = document.querySelector('[data-testid="back-button"]');
  const nextButton = document.querySelector('[data-testid="next-button"]');
  const submitButton = document.querySelector('[data-testid="submit-dispute"]');
  const stepper = document.querySelectorAll(".stepper li");
  const phoneRequired = form.dataset.phoneRequired === "true";
  const description = document.getElementById("description");
  const counter = document.getElementById("description-count");
  const TOTAL = 3;
  let step = 1;

  const FIELDS = {
    accountId: { step: 1, label: "Account", errorId: "account-error", inputs: () => [form.accountId] },
    reason: { step: 1, label: "Reason", errorId: "reason-error", inputs: () => Array.from(form.querySelectorAll("input[name=reason]")) },
    phone: { step: 1, label: "Phone number", errorId: "phone-error", inputs: () => (form.phone ? [form.phone] : []) },
    description: { step: 2, label: "Description", errorId: "description-error", inputs: () => [description] },
    amount: { step: 2, label: "Disputed amount", errorId: "amount-error", inputs: () => [form.amount] },
  };

  function values() {
    const reason = form.querySelector("input[name=reason]:checked");
    return {
      accountId: form.accountId.value,
      reason: reason ? reason.value : "",
      phone: form.phone ? form.phone.value.trim() : undefined,
      description: description.value.trim(),
      amount: form.amount.value,
    };
  }

  function validate(onStep) {
    const v = values();
    const errors = {};
    if (onStep === 1) {
      if (!v.accountId) errors.accountId = "Choose the account you want to dispute.";
      if (!v.reason) errors.reason = "Choose a reason for the dispute.";
      if (phoneRequired && (v.phone || "").replace(/\D/g, "").length < 10) errors.phone = "Enter a phone number with at least 10 digits.";
    }
    if (onStep === 2) {
      if (v.description.length < 20) errors.description = "Describe the problem in at least 20 characters.";
      const amount = Number(v.amount);
      if (!v.amount || !Number.isFinite(amount) || amount <= 0) errors.amount = "Enter a disputed amount greater than 0.";
    }
    return errors;
  }

  function describedBy(input, errorId, on) {
    const ids = (input.getAttribute("aria-describedby") || "").split(/\s+/).filter((id) => id && id !== errorId);
    if (on) ids.push(errorId);
    if (ids.length) input.setAttribute("aria-describedby", ids.join(" "));
    else input.removeAttribute("aria-describedby");
  }

  function showErrors(errors) {
    for (const [name, field] of Object.entries(FIELDS)) {
      const message = errors[name];
      const errorEl = document.getElementById(field.errorId);
      for (const input of field.inputs()) {
        if (message) input.setAttribute("aria-invalid", "true");
        else input.removeAttribute("aria-invalid");
        describedBy(input, field.errorId, Boolean(message));
      }
      if (errorEl) {
        errorEl.textContent = message || "";
        errorEl.hidden = !message;
      }
    }
    const entries = Object.entries(errors);
    if (!entries.length) {
      summary.hidden = true;
      summary.innerHTML = "";
      return;
    }
    const count = entries.length === 1 ? "There is a problem" : `There are ${entries.length} problems`;
    summary.innerHTML = `<strong>${count} with your dispute:</strong><ul>${entries
      .map(([name, message]) => `<li><a href="#" data-field="${name}" data-testid="error-link-${name}">${lumen.escapeHtml(message)}</a></li>`)
      .join("")}</ul>`;
    summary.hidden = false;
    const first = FIELDS[entries[0][0]].inputs()[0];
    if (first) first.focus();
  }

  summary.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-field]");
    if (!link) return;
    event.preventDefault();
    const input = FIELDS[link.dataset.field].inputs()[0];
    if (input) input.focus();
  });

  function fillReview() {
    const v = values();
    const set = (key, text) => {
      const el = form.querySelector(`[data-review="${key}"]`);
      if (el) el.textContent = text;
    };
    set("accountId", form.accountId.selectedOptions[0].textContent);
    const reason = form.querySelector("input[name=reason]:checked");
    set("reason", reason ? reason.parentElement.textContent.trim() : "");
    set("phone", v.phone || "");
    set("description", v.description);
    set("amount", Number(v.amount).toLocaleString("en-US", { style: "currency", currency: "USD" }));
  }

  function show(newStep) {
    step = newStep;
    for (const el of form.querySelectorAll(".step")) el.hidden = Number(el.dataset.step) !== step;
    progress.textContent = `Step ${step} of ${TOTAL}`;
    stepper.forEach((li, i) => {
      li.classList.toggle("is-current", i + 1 === step);
      li.classList.toggle("is-done", i + 1 < step);
    });
    backButton.hidden = step === 1;
    nextButton.hidden = step === TOTAL;
    submitButton.hidden = step !== TOTAL;
    if (step === TOTAL) fillReview();
  }

  nextButton.addEventListener("click", () => {
    const errors = validate(step);
    showErrors(errors);
    if (Object.keys(errors).length) return;
    show(step + 1);
    const first = form.querySelector(`.step[data-step="${step}"] input, .step[data-step="${step}"] textarea`);
    if (first) first.focus();
  });

  backButton.addEventListener("click", () => {
    showErrors({});
    show(step - 1);
  });

  description.addEventListener("input", () => {
    counter.textContent = `${description.value.trim().length} / 20`;
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (step !== TOTAL) {
      nextButton.click();
      return;
    }
    submitButton.disabled = true;
    const v = values();
    const body = { accountId: v.accountId, reason: v.reason, description: v.description, amount: Number(v.amount) };
    if (phoneRequired) body.phone = v.phone;
    const { ok, data } = await lumen.api("POST", "/api/disputes", body);
    submitButton.disabled = false;
    if (!ok) {
      if (data.fields) {
        const firstStep = Math.min(...Object.keys(data.fields).map((name) => (FIELDS[name] ? FIELDS[name].step : TOTAL)));
        show(firstStep);
        showErrors(data.fields);
      } else {
        summary.textContent = data.error || "We couldn't submit your dispute. Try again.";
        summary.hidden = false;
      }
      return;
    }
    document.getElementById("wizard-body").hidden = true;
    const confirmation = document.querySelector('[data-testid="dispute-confirmation"]');
    confirmation.querySelector('[data-testid="dispute-reference"]').textContent = data.dispute.reference;
    confirmation.hidden = false;
    document.getElementById("confirmation-title").focus();
  });

  show(1);
})();
