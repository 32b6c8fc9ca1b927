// The plugin's build emits JavaScript only; the server needs no more than ESLint's plugin shape.
declare module 'eslint-plugin-retry-safety' {
  const plugin: import('eslint').ESLint.Plugin;
  export default plugin;
}
