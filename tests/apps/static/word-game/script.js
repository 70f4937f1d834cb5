const words = ['quince', 'banana', 'cherry', 'orange', 'papaya', 'lemon', 'mango', 'grape', 'apricot', 'melon'];
const scrambledEl = document.getElementById('scrambled');
const guessEl = document.getElementById('guess');
const messageEl = document.getElementById('message');
const scoreEl = document.getElementById('score');

let word = '';
let typed = '';
let score = 0;

function scramble(text) {
  const letters = text.split('');
  for (let i = letters.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [letters[i], letters[j]] = [letters[j], letters[i]];
  }
  const result = letters.join('');
  return result === text ? scramble(text) : result;
}

function newWord() {
  word = words[Math.floor(Math.random() * words.length)];
  typed = '';
  scrambledEl.innerText = scramble(word);
  render();
}

function render() {
  guessEl.innerHTML = word.split('').map((_, i) => `<span>${typed[i] || ''}</span>`).join('');
}

document.addEventListener('keydown', (e) => {
  if (e.key === 'Enter') {
    if (typed === word) {
      score++;
      scoreEl.innerText = score;
      messageEl.innerText = 'Correct!';
      newWord();
    } else {
      messageEl.innerText = 'Not quite, try again';
    }
  } else if (e.key === 'Backspace') {
    typed = typed.slice(0, -1);
    render();
  } else if (/^[a-z]$/i.test(e.key) && typed.length < word.length) {
    typed += e.key.toLowerCase();
    messageEl.innerText = '';
    render();
  }
});

newWord();
