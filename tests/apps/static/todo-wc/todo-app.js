// The app as a custom element with an open shadow root, as a Lit build renders it: the header with the new-todo
// field, the list and the footer (both hidden while there is nothing to show), routes #/, #/active, #/completed.
// Items live in memory only.
const appStyle = `
  :host { display: block; }
  .todoapp { background: #fff; margin: 130px auto 40px; max-width: 550px; position: relative;
    box-shadow: 0 2px 4px 0 rgba(0, 0, 0, 0.2), 0 25px 50px 0 rgba(0, 0, 0, 0.1); }
  h1 { position: absolute; top: -140px; width: 100%; font-size: 80px; font-weight: 200; text-align: center; color: #b83f45; }
  .new-todo { padding: 16px 16px 16px 60px; border: none; width: 100%; box-sizing: border-box; font-size: 24px; }
  .main { position: relative; border-top: 1px solid #e6e6e6; }
  .todo-list { margin: 0; padding: 0; list-style: none; }
  .toggle-all { width: 1px; height: 1px; border: none; opacity: 0; position: absolute; right: 100%; bottom: 100%; }
  .toggle-all + label { display: flex; align-items: center; justify-content: center; width: 45px; height: 65px;
    font-size: 0; position: absolute; top: -65px; left: -0; }
  .toggle-all + label:before { content: '❯'; display: inline-block; font-size: 22px; color: #949494;
    padding: 10px 27px 10px 27px; transform: rotate(90deg); }
  .footer { padding: 10px 15px; height: 20px; text-align: center; font-size: 15px; border-top: 1px solid #e6e6e6; }
  .todo-count { float: left; text-align: left; }
  .filters { margin: 0; padding: 0; list-style: none; position: absolute; right: 0; left: 0; }
  .filters li { display: inline; }
  .filters li a { color: inherit; margin: 3px; padding: 3px 7px; text-decoration: none; border: 1px solid transparent; }
  .filters li a.selected { border-color: #ce4646; }
  .clear-completed { float: right; position: relative; line-height: 19px; text-decoration: none; cursor: pointer;
    background: none; border: 0; }
  [hidden] { display: none !important; }`;

class TodoApp extends HTMLElement {
  constructor() {
    super();
    this.todos = [];
    this.nextId = 1;
    this.filter = 'all';
    this.attachShadow({ mode: 'open' });
    this.shadowRoot.innerHTML = `<style>${appStyle}</style>
      <section class="todoapp">
        <header class="header">
          <h1>todos</h1>
          <input class="new-todo" placeholder="What needs to be done?" autofocus>
        </header>
        <main class="main" hidden>
          <input id="toggle-all" class="toggle-all" type="checkbox">
          <label for="toggle-all">Mark all as complete</label>
          <ul class="todo-list"></ul>
        </main>
        <footer class="footer" hidden>
          <span class="todo-count"></span>
          <ul class="filters">
            <li><a href="#/">All</a></li>
            <li><a href="#/active">Active</a></li>
            <li><a href="#/completed">Completed</a></li>
          </ul>
          <button class="clear-completed" hidden>Clear completed</button>
        </footer>
      </section>`;
    const root = this.shadowRoot;
    root.querySelector('.new-todo').addEventListener('keydown', (e) => {
      if (e.key !== 'Enter') return;
      const title = e.target.value.trim();
      if (!title) return;
      this.todos.push({ id: this.nextId++, title, completed: false });
      e.target.value = '';
      this.render();
    });
    root.querySelector('.toggle-all').addEventListener('change', (e) => {
      this.todos.forEach((todo) => { todo.completed = e.target.checked; });
      this.render();
    });
    root.querySelector('.clear-completed').addEventListener('click', () => {
      this.todos = this.todos.filter((todo) => !todo.completed);
      this.render();
    });
    root.addEventListener('toggle-todo', (e) => this.update(e.detail.id, (todo) => { todo.completed = !todo.completed; }));
    root.addEventListener('delete-todo', (e) => { this.todos = this.todos.filter((t) => t.id !== e.detail.id); this.render(); });
    root.addEventListener('edit-todo', (e) => {
      if (!e.detail.title) { this.todos = this.todos.filter((t) => t.id !== e.detail.id); this.render(); return; }
      this.update(e.detail.id, (todo) => { todo.title = e.detail.title; });
    });
    window.addEventListener('hashchange', () => this.route());
    this.route();
  }

  update(id, change) {
    const todo = this.todos.find((t) => t.id === id);
    if (todo) change(todo);
    this.render();
  }

  route() {
    const hash = location.hash.replace(/^#\/?/, '');
    this.filter = hash === 'active' || hash === 'completed' ? hash : 'all';
    this.render();
  }

  render() {
    const root = this.shadowRoot;
    const shown = this.todos.filter((t) => this.filter === 'all' || (this.filter === 'active' ? !t.completed : t.completed));
    const list = root.querySelector('.todo-list');
    list.replaceChildren(...shown.map((todo) => {
      const item = document.createElement('todo-item');
      item.todo = todo;
      return item;
    }));
    const active = this.todos.filter((t) => !t.completed).length;
    root.querySelector('.main').hidden = this.todos.length === 0;
    root.querySelector('.footer').hidden = this.todos.length === 0;
    root.querySelector('.toggle-all').checked = this.todos.length > 0 && active === 0;
    root.querySelector('.todo-count').innerHTML = `<strong>${active}</strong> item${active === 1 ? '' : 's'} left`;
    root.querySelector('.clear-completed').hidden = this.todos.length === active;
    root.querySelectorAll('.filters a').forEach((link) => {
      link.classList.toggle('selected', link.getAttribute('href') === `#/${this.filter === 'all' ? '' : this.filter}`);
    });
  }
}
customElements.define('todo-app', TodoApp);
