// kbqa chat page behaviour (no framework; htmx 2 and its ws extension do the networking).
// - Enter sends, Shift+Enter inserts a newline, IME composition (Chinese input) never sends.
// - The question box is cleared once sent and restored if the server refuses it.
// - Citation chips load the chunk view into #citation-body (hx-get); this opens the dialog.
(function () {
  'use strict';
  var form = document.getElementById('composer');
  var box = document.getElementById('question');
  var dialog = document.getElementById('citation-dialog');
  var state = document.getElementById('connection-state');
  var lastQuestion = '';
  if (!form || !box) { return; }

  box.addEventListener('keydown', function (e) {
    if (e.key !== 'Enter' || e.shiftKey || e.isComposing || e.keyCode === 229) { return; }
    e.preventDefault();
    if (box.value.trim()) { form.requestSubmit(); }
  });

  document.body.addEventListener('htmx:wsAfterSend', function () {
    lastQuestion = box.value;
    box.value = '';
    box.focus();
  });

  document.body.addEventListener('htmx:oobAfterSwap', function (e) {
    var target = e.detail && e.detail.target;
    if (!target) { return; }
    if (target.id === 'composer-alert' && target.textContent.trim() && !box.value) {
      box.value = lastQuestion;  // refused (busy, too long...): give the text back
    }
    if (target.id === 'messages' || (target.id || '').indexOf('answer-') === 0) {
      window.scrollTo({ top: document.body.scrollHeight });
    }
  });

  document.body.addEventListener('htmx:afterSwap', function (e) {
    if (e.detail.target && e.detail.target.id === 'citation-body' && dialog && !dialog.open) {
      dialog.showModal();
    }
  });

  if (dialog) {
    document.getElementById('citation-close').addEventListener('click', function () { dialog.close(); });
    dialog.addEventListener('click', function (e) { if (e.target === dialog) { dialog.close(); } });
  }

  function connection(name, label) {
    if (!state) { return; }
    state.dataset.state = name;
    state.textContent = label;
  }
  document.body.addEventListener('htmx:wsOpen', function () { connection('open', state.dataset.openLabel || '✓'); });
  document.body.addEventListener('htmx:wsClose', function () { connection('closed', state.dataset.closedLabel || '×'); });
})();
