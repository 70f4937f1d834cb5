/* Errands: a single-page to-do list. State lives in localStorage; the hash (#/, #/active, #/completed) filters. */
(function () {
  'use strict';

  var STORAGE_KEY = 'errands.items';
  var input = document.querySelector('.new-todo');
  var list = document.querySelector('.todo-list');
  var main = document.querySelector('.main');
  var footer = document.querySelector('.footer');
  var count = document.querySelector('.todo-count');
  var clearButton = document.querySelector('.clear-completed');
  var toggleAll = document.getElementById('toggle-all');
  var toggleAllRow = document.querySelector('.toggle-all-row');
  var filterLinks = Array.prototype.slice.call(document.querySelectorAll('.filters a'));

  var todos = load();
  var editingId = null;

  function load() {
    try {
      var items = JSON.parse(localStorage.getItem(STORAGE_KEY) || '[]');
      return Array.isArray(items) ? items : [];
    } catch (err) {
      return [];
    }
  }

  function save() {
//#if no_persist
    localStorage.setItem('errands-items', JSON.stringify(todos));
//#else
    localStorage.setItem(STORAGE_KEY, JSON.stringify(todos));
//#endif
  }

  function newId() {
    return Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
  }

  function currentFilter() {
    var name = location.hash.replace(/^#\/?/, '');
    return name === 'active' || name === 'completed' ? name : 'all';
  }

  function visibleTodos() {
    var filter = currentFilter();
    if (filter === 'completed') return todos.filter(function (t) { return t.completed; });
//#if filter_broken
    if (filter === 'Active') return todos.filter(function (t) { return !t.completed; });
//#else
    if (filter === 'active') return todos.filter(function (t) { return !t.completed; });
//#endif
    return todos;
  }

  function itemNode(todo) {
    var li = document.createElement('li');
    li.dataset.id = todo.id;
    if (todo.completed) li.classList.add('completed');

    var view = document.createElement('div');
    view.className = 'view';
    var box = document.createElement('input');
    box.className = 'toggle';
    box.type = 'checkbox';
    box.checked = !!todo.completed;
    var label = document.createElement('label');
    label.textContent = todo.title;
    var destroy = document.createElement('button');
    destroy.className = 'destroy';
    destroy.type = 'button';
    destroy.setAttribute('aria-label', 'Delete');
    view.append(box, label, destroy);
    li.appendChild(view);

    if (todo.id === editingId) {
      li.classList.add('editing');
      var edit = document.createElement('input');
      edit.className = 'edit';
      edit.value = todo.title;
      edit.addEventListener('keydown', function (event) {
        if (event.key === 'Enter') {
//#if edit_not_saved
          cancelEdit();
//#else
          finishEdit(todo.id, edit.value);
//#endif
        } else if (event.key === 'Escape') {
          cancelEdit();
        }
      });
      edit.addEventListener('blur', function () {
        if (editingId === todo.id) finishEdit(todo.id, edit.value);
      });
      li.appendChild(edit);
    }
    return li;
  }

  function render() {
    list.replaceChildren.apply(list, visibleTodos().map(itemNode));
    var active = todos.filter(function (t) { return !t.completed; }).length;
    var completed = todos.length - active;
//#if counter_wrong
    var left = todos.length;
//#else
    var left = active;
//#endif
    count.innerHTML = '<strong>' + left + '</strong> ' + (left === 1 ? 'item' : 'items') + ' left';
    main.hidden = todos.length === 0;  // as TodoMVC's apps do: the list shows with its first item
    footer.hidden = todos.length === 0;
    toggleAllRow.hidden = todos.length === 0;
    toggleAll.checked = todos.length > 0 && active === 0;
    clearButton.hidden = completed === 0;
    var filter = currentFilter();
    filterLinks.forEach(function (link) {
      var target = link.getAttribute('href').replace(/^#\/?/, '') || 'all';
      link.classList.toggle('selected', target === filter);
    });
    var editing = list.querySelector('.edit');
    if (editing) {
      editing.focus();
      editing.setSelectionRange(editing.value.length, editing.value.length);
    }
  }

  function commit() {
    save();
    render();
  }

  function add(title) {
    todos.push({ id: newId(), title: title, completed: false });
    commit();
  }

  function toggle(id) {
//#if toggle_noop
    todos.map(function (t) { return t.id === id ? Object.assign({}, t, { completed: !t.completed }) : t; });
//#else
    todos = todos.map(function (t) { return t.id === id ? Object.assign({}, t, { completed: !t.completed }) : t; });
//#endif
    commit();
  }

  function remove(id) {
//#if delete_noop
    todos = todos.filter(function (t) { return t.id !== Number(id); });
//#else
    todos = todos.filter(function (t) { return t.id !== id; });
//#endif
    commit();
  }

  function finishEdit(id, value) {
    editingId = null;
    var title = value.trim();
    if (!title) {
      remove(id);
      return;
    }
    todos = todos.map(function (t) { return t.id === id ? Object.assign({}, t, { title: title }) : t; });
    commit();
  }

  function cancelEdit() {
    editingId = null;
    render();
  }

  input.addEventListener('keydown', function (event) {
//#if add_on_enter_broken
    if (event.key !== 'Return') return;
//#else
    if (event.key !== 'Enter' || event.isComposing) return;
//#endif
    var title = input.value.trim();
    if (!title) return;
    input.value = '';
    add(title);
  });

  list.addEventListener('change', function (event) {
    if (event.target.classList.contains('toggle')) toggle(event.target.closest('li').dataset.id);
  });

  list.addEventListener('click', function (event) {
    if (event.target.classList.contains('destroy')) remove(event.target.closest('li').dataset.id);
  });

  list.addEventListener('dblclick', function (event) {
    if (event.target.tagName !== 'LABEL') return;
    editingId = event.target.closest('li').dataset.id;
    render();
  });

  toggleAll.addEventListener('change', function () {
//#if toggle_all_broken
    var checked = !toggleAll.checked;
//#else
    var checked = toggleAll.checked;
//#endif
    todos = todos.map(function (t) { return Object.assign({}, t, { completed: checked }); });
    commit();
  });

  clearButton.addEventListener('click', function () {
//#if clear_completed_noop
    todos = todos.filter(function (t) { return !t.done; });
//#else
    todos = todos.filter(function (t) { return !t.completed; });
//#endif
    commit();
  });

  window.addEventListener('hashchange', render);
  render();
})();
