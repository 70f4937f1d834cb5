// One to-do as a custom element with an open shadow root: a checkbox, its label (double-click to edit) and a
// destroy button shown on hover. It tells its app what happened with events.
const itemStyle = `
  :host { display: block; }
  li { position: relative; font-size: 24px; border-bottom: 1px solid #ededed; list-style: none; }
  .toggle { position: absolute; top: 0; bottom: 0; margin: auto 0; width: 40px; height: 40px; opacity: 0; }
  .toggle + label { background-image: url('data:image/svg+xml;utf8,<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><circle cx="20" cy="20" r="17" fill="none" stroke="%23949494"/></svg>');
    background-repeat: no-repeat; background-position: center left; }
  label { word-break: break-all; padding: 15px 15px 15px 60px; display: block; line-height: 1.2; }
  li.completed label { color: #949494; text-decoration: line-through; }
  .destroy { display: none; position: absolute; top: 0; right: 10px; bottom: 0; width: 40px; height: 40px;
    margin: auto 0; font-size: 30px; color: #949494; background: none; border: 0; }
  .destroy:after { content: '×'; }
  li:hover .destroy { display: block; }
  .edit { display: none; width: calc(100% - 43px); padding: 12px 16px; margin: 0 0 0 43px; font-size: 24px; }
  li.editing .edit { display: block; }
  li.editing .view { display: none; }`;

class TodoItem extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
  }

  set todo(value) {
    this._todo = value;
    this.render();
  }

  render() {
    const todo = this._todo;
    this.shadowRoot.innerHTML = `<style>${itemStyle}</style>
      <li class="${todo.completed ? 'completed' : ''}">
        <div class="view">
          <input class="toggle" type="checkbox" ${todo.completed ? 'checked' : ''}>
          <label></label>
          <button class="destroy"></button>
        </div>
        <input class="edit">
      </li>`;
    const root = this.shadowRoot;
    root.querySelector('label').textContent = todo.title;
    root.querySelector('.toggle').addEventListener('change', () => this.emit('toggle-todo'));
    root.querySelector('.destroy').addEventListener('click', () => this.emit('delete-todo'));
    root.querySelector('label').addEventListener('dblclick', () => {
      root.querySelector('li').classList.add('editing');
      const edit = root.querySelector('.edit');
      edit.value = todo.title;
      edit.focus();
    });
    const edit = root.querySelector('.edit');
    const save = () => {
      if (!root.querySelector('li').classList.contains('editing')) return;
      root.querySelector('li').classList.remove('editing');
      this.emit('edit-todo', { title: edit.value.trim() });
    };
    edit.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') save();
      if (e.key === 'Escape') { root.querySelector('li').classList.remove('editing'); }
    });
    edit.addEventListener('blur', save);
  }

  emit(type, detail = {}) {
    this.dispatchEvent(new CustomEvent(type, { bubbles: true, composed: true, detail: { id: this._todo.id, ...detail } }));
  }
}
customElements.define('todo-item', TodoItem);
