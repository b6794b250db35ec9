// kbqa chat page: what a reader does with a finished answer (no framework).
// - Copy puts the answer on the clipboard with its numbered source list under it.
// - Deleting a conversation asks for confirmation first.
(function () {
  'use strict';

  // The answer as plain text: paragraphs (sentences with their [n] chips), a refusal card's
  // text, then "Sources:" with one line per numbered source, as the bubble shows them.
  function answerText(bubble, sourcesLabel) {
    var parts = [];
    bubble.querySelectorAll('.answer .para').forEach(function (p) {
      parts.push(p.textContent.replace(/\s+/g, ' ').trim());
    });
    var refusal = bubble.querySelector('.refusal');
    if (refusal) { parts.push(refusal.innerText.trim()); }
    var sources = bubble.querySelectorAll('.sources .source');
    if (sources.length) {
      var lines = [sourcesLabel + ':'];
      sources.forEach(function (li) { lines.push(li.textContent.replace(/\s+/g, ' ').trim()); });
      parts.push(lines.join('\n'));
    }
    return parts.join('\n\n');
  }

  function clipboardWrite(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    // plain-http deployments have no Clipboard API: the old selection-based copy
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    var ok = document.execCommand('copy');
    document.body.removeChild(area);
    return ok ? Promise.resolve() : Promise.reject(new Error('copy refused'));
  }

  document.addEventListener('click', function (e) {
    var button = e.target.closest && e.target.closest('.copy-answer');
    if (!button) { return; }
    var bubble = button.closest('.bubble-assistant');
    var label = button.textContent;
    clipboardWrite(answerText(bubble, button.dataset.sourcesLabel || 'Sources')).then(function () {
      button.textContent = button.dataset.copiedLabel || label;
      setTimeout(function () { button.textContent = label; }, 2000);
    });
  });

  var deleteForm = document.getElementById('delete-form');
  if (deleteForm) {
    deleteForm.addEventListener('submit', function (e) {
      if (!window.confirm(deleteForm.dataset.confirm)) { e.preventDefault(); }
    });
  }
})();
