// Profile page: saving the display name and uploading a photo both need a signed-in member.
(function () {
  "use strict";
  const profileForm = document.getElementById("profile-form");
  const avatarForm = document.getElementById("avatar-form");
  const fileInput = document.getElementById("avatar");
  const preview = document.querySelector('[data-testid="avatar-preview"]');

  function report(prefix, error, message) {
    const errorBox = document.querySelector(`[data-testid="${prefix}-error"]`);
    const status = document.querySelector(`[data-testid="${prefix}-status"]`);
    errorBox.hidden = !error;
    errorBox.textContent = error ? message : "";
    status.textContent = error ? "" : message;
  }

  function kilobytes(size) {
    return size < 1024 * 1024 ? `${(size / 1024).toFixed(1)} KB` : `${(size / 1024 / 1024).toFixed(2)} MB`;
  }

  profileForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = document.getElementById("display-name").value.trim();
    if (!name) return report("profile", true, "Enter a display name.");
    const { ok, data } = await lumen.api("POST", "/api/profile", { displayName: name });
    report("profile", !ok, ok ? "Your profile was saved." : data.error);
  });

  avatarForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = fileInput.files[0];
    if (!file) return report("upload", true, "Choose a photo to upload.");
    const body = new FormData();
    body.append("file", file, file.name);
    const button = avatarForm.querySelector("button[type=submit]");
    button.disabled = true;
    let response;
    let data = {};
    try {
      response = await fetch("/api/upload", { method: "POST", body, credentials: "same-origin" });
      data = await response.json();
    } catch (_) {
      data = { error: "The upload failed. Check your connection and try again." };
    } finally {
      button.disabled = false;
    }
    if (!response || !response.ok) return report("upload", true, data.error || "The upload failed. Try again.");
    report("upload", false, `Uploaded ${data.filename} (${kilobytes(data.size)}).`);
    const img = document.createElement("img");
    img.alt = "Your profile photo";
    img.src = `/api/avatar?v=${Date.now()}`;
    preview.replaceChildren(img);
  });
})();
