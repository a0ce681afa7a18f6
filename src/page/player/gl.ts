/**
 * The environment's gnomonic reprojection as a WebGL2 fragment shader: the
 * formula of src/page/reproject.ts (and replay/render/reproject.ts),
 * one fragment per output pixel, sampling the panorama texel the JS path
 * samples (texelFetch at the truncated coordinate: no filtering). Float32
 * on the GPU against float64 in JS, so a sample on a pixel boundary may pick
 * its neighbour: in-between frames are approximate either way.
 */
import type { ReprojectionSpec } from "../reproject.ts";

const VERTEX = `#version 300 es
in vec2 p;
void main() { gl_Position = vec4(p, 0.0, 1.0); }`;

const FRAGMENT = `#version 300 es
precision highp float;
precision highp int;
precision highp sampler2D;
uniform sampler2D pano;
uniform vec2 outSize;
uniform float focal;
uniform vec4 trig; // cos pitch, sin pitch, cos heading, sin heading
out vec4 colour;
const float PI = 3.141592653589793;
void main() {
  // Output pixel (x, y) counted from the top left, as the JS path loops.
  float x = gl_FragCoord.x - 0.5;
  float y = outSize.y - 0.5 - gl_FragCoord.y;
  float rx0 = x - outSize.x / 2.0;
  float ry0 = -(y - outSize.y / 2.0);
  float n = sqrt(rx0 * rx0 + ry0 * ry0 + focal * focal);
  float rx = rx0 / n, ry = ry0 / n, rz = focal / n;
  float a1 = ry * trig.x - rz * trig.y;
  float a2 = ry * trig.y + rz * trig.x;
  float b0 = rx * trig.z + a2 * trig.w;
  float b2 = -rx * trig.w + a2 * trig.z;
  float lon = atan(b0, b2);
  float lat = asin(clamp(a1, -1.0, 1.0));
  ivec2 size = textureSize(pano, 0);
  int u = int(trunc((lon / (2.0 * PI) + 0.5) * float(size.x))) % size.x;
  if (u < 0) u += size.x;
  int v = clamp(int(trunc((0.5 - lat / PI) * float(size.y))), 0, size.y - 1);
  colour = vec4(texelFetch(pano, ivec2(u, v), 0).rgb, 1.0);
}`;

const DEG = Math.PI / 180;

function compile(gl: WebGL2RenderingContext, type: number, src: string): WebGLShader {
  const s = gl.createShader(type)!;
  gl.shaderSource(s, src);
  gl.compileShader(s);
  if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(`reprojection shader: ${gl.getShaderInfoLog(s) ?? "did not compile"}`);
  return s;
}

export class GlReprojector {
  private readonly canvas: OffscreenCanvas;
  private readonly gl: WebGL2RenderingContext;
  private readonly uniforms: { outSize: WebGLUniformLocation; focal: WebGLUniformLocation; trig: WebGLUniformLocation };
  private readonly textures = new Map<number, WebGLTexture>();

  /** Throws when WebGL2 is not available (the caller falls back to the JS path). */
  constructor(width: number, height: number) {
    // Offscreen, handing each view over as an ImageBitmap: drawing an on-page WebGL canvas into a 2D
    // canvas synchronised the two contexts on every frame (measured 3x slower on SwiftShader).
    this.canvas = new OffscreenCanvas(width, height);
    const gl = this.canvas.getContext("webgl2", { antialias: false, alpha: false });
    if (!gl) throw new Error("WebGL2 is not available");
    this.gl = gl;
    const prog = gl.createProgram()!;
    gl.attachShader(prog, compile(gl, gl.VERTEX_SHADER, VERTEX));
    gl.attachShader(prog, compile(gl, gl.FRAGMENT_SHADER, FRAGMENT));
    gl.linkProgram(prog);
    if (!gl.getProgramParameter(prog, gl.LINK_STATUS)) throw new Error(`reprojection program: ${gl.getProgramInfoLog(prog) ?? "did not link"}`);
    gl.useProgram(prog);
    const buf = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, buf);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 3, -1, -1, 3]), gl.STATIC_DRAW);
    const loc = gl.getAttribLocation(prog, "p");
    gl.enableVertexAttribArray(loc);
    gl.vertexAttribPointer(loc, 2, gl.FLOAT, false, 0, 0);
    gl.uniform1i(gl.getUniformLocation(prog, "pano"), 0);
    this.uniforms = {
      outSize: gl.getUniformLocation(prog, "outSize")!,
      focal: gl.getUniformLocation(prog, "focal")!,
      trig: gl.getUniformLocation(prog, "trig")!,
    };
    gl.viewport(0, 0, width, height);
  }

  /** Uploads a decoded panorama once (its table index is the key). */
  addPano(n: number, img: TexImageSource): void {
    if (this.textures.has(n)) return;
    const gl = this.gl;
    const tex = gl.createTexture()!;
    gl.bindTexture(gl.TEXTURE_2D, tex);
    gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, img);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    this.textures.set(n, tex);
  }

  /** The view, as a bitmap the caller owns (and closes). */
  draw(pano: number, v: ReprojectionSpec): ImageBitmap {
    const gl = this.gl;
    const tex = this.textures.get(pano);
    if (!tex) throw new Error(`panorama ${pano} was not uploaded`);
    gl.bindTexture(gl.TEXTURE_2D, tex);
    const W = this.canvas.width;
    const H = this.canvas.height;
    gl.uniform2f(this.uniforms.outSize, W, H);
    gl.uniform1f(this.uniforms.focal, (0.5 * W) / Math.tan((v.fov * DEG) / 2));
    gl.uniform4f(this.uniforms.trig, Math.cos(v.pitch * DEG), Math.sin(v.pitch * DEG), Math.cos(v.heading * DEG), Math.sin(v.heading * DEG));
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    return this.canvas.transferToImageBitmap();
  }
}
