export {};
console.log('platform-ext');
