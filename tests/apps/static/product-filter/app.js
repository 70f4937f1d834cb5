const products = [
  { name: 'Studio Headphones', category: 'audio', price: 199 },
  { name: 'Bluetooth Speaker', category: 'audio', price: 89 },
  { name: 'Mirrorless Camera', category: 'camera', price: 899 },
  { name: 'Action Camera', category: 'camera', price: 349 },
  { name: 'Ultrabook 13', category: 'laptop', price: 999 },
  { name: 'Gaming Laptop', category: 'laptop', price: 1499 },
  { name: 'Smartphone X', category: 'phone', price: 799 },
  { name: 'Budget Phone', category: 'phone', price: 199 },
];
const list = document.getElementById('products');
const count = document.getElementById('result-count');
const search = document.getElementById('search');
const price = document.getElementById('price');
const priceValue = document.getElementById('price-value');
const boxes = [...document.querySelectorAll('.category')];

function render() {
  const wanted = boxes.filter((box) => box.checked).map((box) => box.value);
  const text = search.value.trim().toLowerCase();
  const max = +price.value;
  const shown = products.filter((p) => (!wanted.length || wanted.includes(p.category))
    && p.name.toLowerCase().includes(text) && p.price <= max);
  list.innerHTML = shown.map((p) => `<article class="product"><h3>${p.name}</h3><p class="price">$${p.price}</p></article>`).join('');
  count.textContent = `${shown.length} product${shown.length === 1 ? '' : 's'}`;
  priceValue.textContent = `Up to $${max}`;
}
boxes.forEach((box) => box.addEventListener('change', render));
search.addEventListener('input', render);
price.addEventListener('input', render);
render();
