// kbqa chat page behaviour (no framework; htmx 2 and its ws extension do the networking).
// - Enter sends, Shift+Enter inserts a newline, IME composition (Chinese input) never sends.
// - The question box is cleared once sent and restored if the server refuses it.
// - Nothing is sent while the socket is not admitted: the question stays in the box and the
//   alert says so (the ws extension would otherwise queue it silently).
// - #connection-state says "connected" only when the server sends it (after it has checked
//   this conversation); the socket closing or reconnecting is shown here.
// - Reconnects back off across sockets that close soon after opening: the ws extension starts
//   its backoff over at every open, so a server that accepted and then dropped each socket
//   (Redis down, before the consumer survived it) was asked again about once a second.
// - The server says "connected" again on the same socket once it has rejoined its
//   conversation's group after the channel layer was down (chat/layer_outage.py): the page
//   names its "Answering…" bubbles again, since what happened to them meanwhile was not relayed.
// - A composer alert marked data-notice is news about the service ("temporarily
//   unavailable", "available again"), not a refusal: it never puts a question back in the box.
// - The page title follows the conversation title once the first question names it.
// - Citation chips load the chunk view into #citation-body (hx-get); this opens the dialog.
// - The fabrication switch is one-shot: it is unchecked once a question is sent.
// - The newest bubble is scrolled fully above the pinned composer when the page opens and
//   after every swap.
// - While an answer streams, Stop replaces Send; Stop or Esc sends {"type": "stop",
//   "question": id}. So does an answer running for another tab or for this page before a
//   reload (its bubble "pending"): the server stops it wherever it runs.
// - On phones the conversation list is a closed <details> switcher above the messages.
// - "Skip to the question box" focuses the composer.
// - On a computer (a fine pointer: mouse, trackpad) the question box has the focus when the
//   page opens, unless the reader moved it already; on a touch screen it does not (focusing
//   it would pop up the on-screen keyboard over the conversation). Not `autofocus`: the
//   server cannot tell a phone from a computer, a media query in the page can.
// - Every time the socket opens (page load, reconnect after a drop or a server restart) the
//   bubbles still saying "Answering…" are named to the server ({"type": "sync"}), which
//   replaces each with its stored state (chat/turn_sync.py): never a spinner left forever.
//   A turn is appended once: a stored turn announced while the page already shows its
//   question (it ended between a reconnect and that sync) replaces the bubble under the
//   question instead of appending question and answer a second time.
// - The question box has no maxlength (it would cut a paste silently): a counter appears near
//   the limit and says by how much a question is over it. A question over the limit is not
//   sent (the alert says why; the server would refuse it, and a paste of a few MB is over
//   Daphne's frame limit, which closes the socket). Enter on an empty or blank box says why
//   nothing was sent.
// - While an answer streams, Enter sends nothing: the question stays in the box and the alert
//   says to send it when the answer has finished (or Esc to stop that answer).
// - A question typed when "New conversation" is pressed is in the new page's box
//   (sessionStorage, this tab only).
// - After thumbs down the comment box has the focus; after another feedback button, that
//   button (htmx replaces the form, which would leave the focus on <body>).
(function () {
  'use strict';
  var form = document.getElementById('composer');
  var box = document.getElementById('question');
  var dialog = document.getElementById('citation-dialog');
  var fabricate = document.getElementById('fabricate');
  var lastQuestion = '';
  var lastFabricate = false;
  var offlineShown = false;
  var socket = null;  // the ws extension's socket wrapper, from its events
  var sendButton = document.getElementById('send-button');
  var stopButton = document.getElementById('stop-button');
  var staffMenu = document.getElementById('staff-menu');
  var dock = form ? form.closest('.composer-dock') || form : null;
  if (!form || !box) { return; }

  // "New conversation" loads another page: a question typed here (say, after the alert that
  // this conversation was deleted in another tab) moves with it instead of being lost.
  var DRAFT_KEY = 'kbqa-question-draft';
  var newConversation = document.getElementById('new-conversation-form');
  try {
    var draft = window.sessionStorage.getItem(DRAFT_KEY);
    window.sessionStorage.removeItem(DRAFT_KEY);
    if (draft && !box.value) { box.value = draft; }
  } catch (err) { /* storage blocked: nothing to carry */ }
  if (newConversation) {
    newConversation.addEventListener('submit', function () {
      try {
        if (box.value.trim()) { window.sessionStorage.setItem(DRAFT_KEY, box.value); }
      } catch (err) { /* storage blocked or full: the page loads without it */ }
    });
  }

  box.addEventListener('keydown', function (e) {
    if (e.key !== 'Enter' || e.shiftKey || e.isComposing || e.keyCode === 229) { return; }
    e.preventDefault();
    if (box.value.trim()) { form.requestSubmit(); } else { showAlert(form.dataset.emptyMessage || ''); }
  });

  // ---- length: the server refuses a question over the limit with the same message
  var counter = document.getElementById('question-count');
  var limit = parseInt(box.dataset.maxChars || '0', 10);
  // as the server counts them: code points, trimmed
  function questionLength() { return Array.from(box.value.trim()).length; }
  function countShow() {
    if (!counter || !limit) { return; }
    var n = questionLength();
    var over = n > limit;
    counter.hidden = n < limit * 0.9;
    counter.classList.toggle('is-over', over);
    counter.textContent = (over ? counter.dataset.overTemplate : counter.dataset.template)
      .replace('%(count)s', n).replace('%(limit)s', limit).replace('%(over)s', n - limit);
    if (over) { box.setAttribute('aria-invalid', 'true'); } else { box.removeAttribute('aria-invalid'); }
  }
  box.addEventListener('input', function () {
    countShow();
    var a = alertBox();  // "Type a question before sending." is answered by typing one
    if (a && box.value.trim() && a.textContent === form.dataset.emptyMessage) { showAlert(''); }
  });

  // ---- connection state (the span is replaced by the server's fragment: look it up each time)
  function stateElement() { return document.getElementById('connection-state'); }
  function stateName() { var s = stateElement(); return s ? s.dataset.state : ''; }
  function showState(name, label) {
    var s = stateElement();
    if (!s) { return; }
    s.dataset.state = name;
    s.textContent = label;
  }
  // The codes after which the ws extension reconnects by itself (see its socket.onclose).
  var RETRIED = [1006, 1011, 1012, 1013];
  // A socket open this long before it closed was steady: the next reconnect is prompt again.
  var STEADY_MS = 30000;
  var openedAt = 0;
  var quickDrops = 0;  // sockets in a row that closed within STEADY_MS of opening
  var admitted = false;  // the server has said "connected" on this socket
  // The extension's own "full-jitter" wait (up to 1 s x 2^n, n at most 6), with n counting
  // the quick drops as well as the failed attempts since the last open (retryCount).
  htmx.config.wsReconnectDelay = function (retryCount) {
    if (openedAt) {
      quickDrops = Date.now() - openedAt < STEADY_MS ? quickDrops + 1 : 0;
      openedAt = 0;
    }
    return 1000 * Math.pow(2, Math.min(retryCount + quickDrops, 6)) * Math.random();
  };
  document.body.addEventListener('htmx:wsOpen', function (e) {
    socket = e.detail.socketWrapper;
    openedAt = Date.now();
    admitted = false;
    turnsSync();
  });
  // The "Answering…" bubbles this page holds, with the question above each.
  function turnsSync() {
    var turns = [];
    document.querySelectorAll('#messages .bubble-assistant').forEach(function (bubble) {
      var footer = bubble.querySelector('.bubble-footer');
      var status = footer ? footer.dataset.status : '';
      var question = questionOf(bubble);
      if ((status !== 'streaming' && status !== 'pending') || !question) { return; }
      turns.push({ key: bubble.id.replace(/^turn-/, ''), question: question });
    });
    if (turns.length && socket) { socket.send(JSON.stringify({ type: 'sync', turns: turns })); }
  }
  // The id of the question shown right above an answer bubble (#msg-<id>), or 0.
  function questionOf(bubble) {
    var asked = bubble.previousElementSibling;
    return asked && /^msg-\d+$/.test(asked.id) ? parseInt(asked.id.slice(4), 10) : 0;
  }
  // A turn appended to #messages (the "turn-start" fragment) whose question (#msg-<id>) the
  // page shows already: its answer bubble replaces the one under that question, whatever
  // its key (streamed "t…", stored "m…"); nothing is appended twice.
  document.body.addEventListener('htmx:oobBeforeSwap', function (e) {
    var d = e.detail;
    if (!d || !d.target || d.target.id !== 'messages' || !d.fragment) { return; }
    Array.prototype.slice.call(d.fragment.querySelectorAll('.bubble-user[id]')).forEach(function (asked) {
      var shown = document.getElementById(asked.id);
      if (!shown) { return; }
      var answer = asked.nextElementSibling;
      asked.remove();
      if (!answer || !answer.classList.contains('bubble-assistant')) { return; }
      answer.remove();
      var old = shown.nextElementSibling;
      if (old && old.classList.contains('bubble-assistant')) { old.replaceWith(answer); } else { shown.after(answer); }
      htmx.process(answer);
    });
    if (!d.fragment.querySelector('*')) { d.shouldSwap = false; }
  });
  document.body.addEventListener('htmx:wsConnecting', function () {
    var s = stateElement();
    if (s) { showState('connecting', s.dataset.connectingLabel || '…'); }
  });
  document.body.addEventListener('htmx:wsClose', function (e) {
    var s = stateElement();
    var code = e.detail && e.detail.event ? e.detail.event.code : 0;
    // "ended": no retry is coming (4401/4403 refusals, a normal close): only a reload helps.
    if (s) { showState(RETRIED.indexOf(code) >= 0 ? 'closed' : 'ended', s.dataset.closedLabel || '×'); }
  });

  // ---- composer alert
  function alertBox() { return document.getElementById('composer-alert'); }
  function showAlert(message) {
    var a = alertBox();
    if (!a) { return; }
    a.textContent = message;
    a.classList.toggle('is-shown', !!message);
  }

  document.body.addEventListener('htmx:wsConfigSend', function (e) {
    var n = e.target === form && limit ? questionLength() : 0;
    if (n > limit) {  // kept here, whole: the server would only refuse it
      e.preventDefault();
      if (e.detail && e.detail.triggeringEvent) { e.detail.triggeringEvent.preventDefault(); }
      showAlert((form.dataset.tooLongMessage || '').replace('%(count)s', n).replace('%(limit)s', limit));
      box.focus();
      return;
    }
    var name = stateName();
    if (name === 'open' && streamingNow() && e.target === form) {
      e.preventDefault();  // one answer at a time: keep the question in the box
      if (e.detail && e.detail.triggeringEvent) { e.detail.triggeringEvent.preventDefault(); }
      showAlert(form.dataset.busyMessage || '');
      return;
    }
    if (name === 'open') { return; }
    e.preventDefault();
    if (e.detail && e.detail.triggeringEvent) { e.detail.triggeringEvent.preventDefault(); }
    var a = alertBox();
    if (name === 'ended' && a && a.textContent.trim() && !offlineShown) { return; }  // the server said why
    showAlert(name === 'ended' ? form.dataset.endedMessage : form.dataset.offlineMessage);
    offlineShown = true;
    box.focus();
  });

  document.body.addEventListener('htmx:wsAfterSend', function () {
    lastQuestion = box.value;
    box.value = '';
    countShow();
    if (fabricate) {  // a demo switch for one question, not a mode
      lastFabricate = fabricate.checked;
      fabricate.checked = false;
    }
    if (staffMenu) { staffMenu.open = false; }
    streamingShow(true);
    box.focus();
  });

  // ---- stop: while the newest answer streams, Stop replaces Send (Esc does the same)
  // An answer running here ("streaming") or for another page of this conversation, or
  // for this page before a reload ("pending"): Stop stops it wherever it runs.
  function runningBubble() {
    var footers = document.querySelectorAll(
      '#messages .bubble-footer[data-status="streaming"], #messages .bubble-footer[data-status="pending"]');
    return footers.length ? footers[footers.length - 1].closest('.bubble-assistant') : null;
  }
  function streamingNow() { return !!runningBubble(); }
  function streamingShow(on) {
    form.classList.toggle('is-streaming', on);
    if (stopButton) { stopButton.hidden = !on; }
    if (sendButton) { sendButton.hidden = on; }
  }
  function answerStop() {
    var bubble = runningBubble();
    if (!socket || !bubble) { return; }
    var frame = { type: 'stop' };
    if (questionOf(bubble)) { frame.question = questionOf(bubble); }
    socket.send(JSON.stringify(frame));
    box.focus();
  }
  if (stopButton) { stopButton.addEventListener('click', answerStop); }
  document.addEventListener('keydown', function (e) {
    if (e.key !== 'Escape' || e.isComposing || (dialog && dialog.open)) { return; }
    if (document.querySelector('details.menu[open]')) { return; }  // Esc closes a menu first
    if (streamingNow()) { e.preventDefault(); answerStop(); }
  });

  // After each server message, read the DOM it left (an oob event's detail.target is the
  // element that was replaced, not its successor).
  document.body.addEventListener('htmx:wsAfterMessage', function (e) {
    var message = (e.detail && e.detail.message) || '';
    var a = alertBox();
    if (message.indexOf('id="connection-state"') >= 0 && stateName() === 'open') {
      if (admitted) { turnsSync(); }  // rejoined after the channel layer was down
      admitted = true;
    }
    if (message.indexOf('id="composer-alert"') >= 0) {
      offlineShown = false;
      if (a && a.textContent.trim() && !box.value && !a.dataset.notice) {
        box.value = lastQuestion;  // refused (busy, too long...): give the text back
        countShow();
        if (fabricate) { fabricate.checked = lastFabricate; }
      }
    }
    if (stateName() === 'open' && offlineShown) {
      showAlert('');
      offlineShown = false;
    }
    var current = document.querySelector('.conversation-link[aria-current="page"]');
    if (current) { titleFollow(current.textContent.trim()); }
    streamingShow(streamingNow());
    var shown = alertBox();  // the answer has finished: the kept question may be sent now
    if (!streamingNow() && shown && shown.textContent === form.dataset.busyMessage) { showAlert(''); }
  });

  // ---- keep the newest bubble's end in view, above the sticky composer. Every part of a turn
  // (sentences, refusal or conflict card, notices, footer) is swapped separately, and each
  // one can make the bubble taller: on a phone the conflict card used to stay under the
  // composer. An oob event's target is the replaced element, often detached: check by id.
  var TURN_PARTS = /^(messages|answer-|para-|sources-|progress-|refusal-|notices-|withheld-|error-|footer-)/;
  function newestReveal() {
    var messages = document.getElementById('messages');
    var newest = messages && messages.lastElementChild;
    if (!newest) { return; }
    var hidden = newest.getBoundingClientRect().bottom - dock.getBoundingClientRect().top + 8;
    if (hidden > 0) { window.scrollBy({ top: hidden, behavior: 'instant' }); }
  }
  // An opened conversation shows its newest answer, not its first question: its end above
  // the composer, or, when it is taller than the space, its start at the top. The browser's
  // own scroll restoration (on reload) would undo this.
  function newestOpen() {
    var messages = document.getElementById('messages');
    var newest = messages && messages.lastElementChild;
    if (!newest) { return; }
    var box = newest.getBoundingClientRect();
    if (box.height > dock.getBoundingClientRect().top - 8) {
      window.scrollBy({ top: box.top - 8, behavior: 'instant' });
    } else {
      newestReveal();
    }
  }
  if ('scrollRestoration' in history) { history.scrollRestoration = 'manual'; }
  newestOpen();
  window.addEventListener('load', newestOpen);
  document.body.addEventListener('htmx:oobAfterSwap', function (e) {
    var target = e.detail && e.detail.target;
    if (target && TURN_PARTS.test(target.id || '')) { newestReveal(); }
  });

  // htmx cannot swap <title> out of band: follow the current conversation's sidebar link.
  function titleFollow(title) {
    var heading = document.getElementById('chat-title');
    if (!title || (heading && heading.textContent === title)) { return; }
    document.title = title + ' · kbqa';  // as the chat.html title block renders it
    if (heading) { heading.textContent = title; }
    var rename = document.getElementById('rename-title');
    if (rename && !rename.value) { rename.value = title; }
  }

  // A passage that is gone (410, purged) or not available to this reader (404: removed, or
  // access withdrawn) answers with a message meant for the dialog: show it there, instead of
  // htmx's default of ignoring an error response (the chip then seemed to do nothing).
  function passageGone(e) {
    var status = e.detail.xhr && e.detail.xhr.status;
    return e.detail.target && e.detail.target.id === 'citation-body' &&
      (status === 404 || status === 410);
  }
  // In DEBUG, django-htmx's script (on document) replaces the page with an error response so
  // developers see Django's error page; this one is an answer for the reader, not an error.
  document.body.addEventListener('htmx:beforeOnLoad', function (e) {
    if (passageGone(e)) { e.stopPropagation(); }
  });
  document.body.addEventListener('htmx:beforeSwap', function (e) {
    if (passageGone(e)) {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    }
  });

  document.body.addEventListener('htmx:afterSwap', function (e) {
    if (e.detail.target && e.detail.target.id === 'citation-body' && dialog) {
      if (!dialog.open) { dialog.showModal(); }
      // the passage's highlighted support (chunk view, ?claim=): bring it into view
      var support = e.detail.target.querySelector('#support');
      if (support) { support.scrollIntoView({ block: 'center', behavior: 'instant' }); }
    }
  });

  // ---- phones: the conversation list folds into a switcher (the CSS breakpoint's width)
  var switcher = document.getElementById('conversation-switcher');
  var narrow = window.matchMedia('(max-width: 700px)');
  function switcherFit() { if (switcher) { switcher.open = !narrow.matches; } }
  switcherFit();
  narrow.addEventListener('change', switcherFit);

  var nothingFocused = !document.activeElement || document.activeElement === document.body;
  if (nothingFocused && window.matchMedia('(pointer: fine)').matches) {
    box.focus({ preventScroll: true });  // the pinned composer is in view; keep newestOpen's scroll
  }

  var skip = document.getElementById('skip-to-question');
  if (skip) {
    skip.addEventListener('click', function (e) { e.preventDefault(); box.focus(); });
  }

  if (dialog) {
    document.getElementById('citation-close').addEventListener('click', function () { dialog.close(); });
    dialog.addEventListener('click', function (e) { if (e.target === dialog) { dialog.close(); } });
  }
})();
