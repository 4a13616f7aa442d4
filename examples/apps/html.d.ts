// What a bundler's text loader gives for an HTML import (esbuild `--loader:.html=text`): the file's text.
declare module "*.html" {
  const html: string;
  export default html;
}
