// kbqa chat page: what a reader does with a finished answer (no framework).
// - Copy puts the answer on the clipboard with the notices shown above it and its numbered
//   source list under it.
// - Deleting a conversation asks for confirmation first.
// - Feedback keeps the keyboard focus: htmx replaces the feedback form, which would leave it
//   on <body>; thumbs down moves it to the comment box, any other button keeps its place.
// - For reviewers, the trace id under an answer opens its trace.
(function () {
  'use strict';

  // The answer as plain text: the notices (which document takes precedence...), paragraphs
  // (sentences with their [n] chips), a refusal card's text, then the sources heading
  // ("Sources:", 来源：, translated with its colon) with one line per numbered source, as the
  // bubble shows them.
  function answerText(bubble, sourcesLabel) {
    var parts = [];
    bubble.querySelectorAll('.notices .notice').forEach(function (p) {
      parts.push(p.textContent.replace(/\s+/g, ' ').trim());
    });
    bubble.querySelectorAll('.answer .para').forEach(function (p) {
      parts.push(p.textContent.replace(/\s+/g, ' ').trim());
    });
    var refusal = bubble.querySelector('.refusal');
    if (refusal) { parts.push(refusal.innerText.trim()); }
    var sources = bubble.querySelectorAll('.sources .source');
    if (sources.length) {
      var lines = [sourcesLabel];
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
    clipboardWrite(answerText(bubble, button.dataset.sourcesLabel || 'Sources:')).then(function () {
      button.textContent = button.dataset.copiedLabel || label;
      setTimeout(function () { button.textContent = label; }, 2000);
    });
  });

  // ---- feedback focus: which control of which form was pressed, found again after the swap
  var pressed = null;
  document.addEventListener('submit', function (e) {
    var form = e.target.closest && e.target.closest('form.feedback');
    var button = e.submitter;
    if (!form || !button) { return; }
    var kind = ['feedback-up', 'feedback-down', 'feedback-send'].filter(function (c) {
      return button.classList.contains(c);
    })[0];
    pressed = kind ? { id: form.id, kind: kind } : null;
  }, true);
  document.body.addEventListener('htmx:afterSwap', function () {
    if (!pressed) { return; }
    var form = document.getElementById(pressed.id);
    var kind = pressed.kind;
    pressed = null;
    if (!form) { return; }
    var comment = form.querySelector('details.feedback-comment');
    var target = null;
    if (kind === 'feedback-down' && comment && comment.open) {
      target = comment.querySelector('textarea');
    } else if (kind === 'feedback-send') {
      target = comment && comment.open ? form.querySelector('.feedback-send') : (comment && comment.querySelector('summary'));
    } else {
      target = form.querySelector('.' + kind);
    }
    if (target) { target.focus(); }
  });

  // ---- the comment box sends on Enter, as the composer does (Shift+Enter: a new line); a
  // tester typed a comment, pressed Enter, and it sat in the box looking sent, never saved
  document.addEventListener('keydown', function (e) {
    var box = e.target;
    if (!box || box.tagName !== 'TEXTAREA' || box.name !== 'comment') { return; }
    if (e.key !== 'Enter' || e.shiftKey || e.isComposing || e.keyCode === 229) { return; }
    var form = box.closest('form.feedback');
    var send = form && form.querySelector('.feedback-send');
    if (!send) { return; }
    e.preventDefault();
    send.click();  // a click, not requestSubmit: htmx sends the pressed button's rating
  });

  // ---- reviewers: the trace id under an answer links to its trace page. #messages carries
  // that page's URL only for them (others see the id as text); footers arrive by htmx swaps
  // over the websocket, so new ones are linked as they appear (a tester copied the id into
  // the traces search by hand).
  var messages = document.getElementById('messages');
  var traceUrl = messages && messages.dataset.traceUrl;
  function traceLinks() {
    messages.querySelectorAll('code.trace-id').forEach(function (code) {
      if (code.parentNode.tagName === 'A') { return; }
      var link = document.createElement('a');
      link.className = 'trace-link';
      link.href = traceUrl.replace('TRACE_ID', encodeURIComponent(code.textContent.trim()));
      code.parentNode.replaceChild(link, code);
      link.appendChild(code);
    });
  }
  if (traceUrl) {
    traceLinks();
    new MutationObserver(traceLinks).observe(messages, { childList: true, subtree: true });
  }

  var deleteForm = document.getElementById('delete-form');
  if (deleteForm) {
    deleteForm.addEventListener('submit', function (e) {
      if (!window.confirm(deleteForm.dataset.confirm)) { e.preventDefault(); }
    });
  }
})();
