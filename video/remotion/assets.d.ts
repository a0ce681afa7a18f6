/** Webpack (Remotion's bundler) turns these imports into URLs of bundled files. */
declare module "*.woff2" {
  const url: string;
  export default url;
}
