// "Apply now" on an offer's page: acknowledges the application in a status message.
(function () {
  "use strict";
  const button = document.querySelector('[data-testid="apply-button"]');
  const status = document.querySelector('[data-testid="apply-status"]');
  button.addEventListener("click", () => {
    button.disabled = true;
    button.textContent = "Application received";
    status.textContent = `Thanks! Your application for ${button.dataset.offerName} was received. The lender will email you within 2 business days.`;
    status.hidden = false;
  });
})();
