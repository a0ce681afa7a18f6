/**
 * The environment's gnomonic reprojection as a WebGL2 fragment shader: the
 * formula of src/page/reproject.ts (and envs/geoguesser/replay/render/reproject.ts),
 * one fragment per output pixel, sampling the panorama texel the JS path
 * samples (texelFetch at the truncated coordinate: no filtering). Float32
 * on the GPU against float64 in JS, so a sample on a pixel boundary may pick
 * its neighbour: in-between frames are approximate either way. Where a
 * verified view of the panorama saw the pixel's ray (up to two, narrower
 * first: exact.ts), the pixel is that view's, filtered bilinearly.
 */
import type { ReprojectionSpec } from "../../../../../src/page/reproject.ts";

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
uniform int exactCount;
uniform sampler2D exact0;
uniform sampler2D exact1;
uniform vec4 exactTrig0;
uniform vec4 exactTrig1;
uniform vec3 exactCam0; // focal, width, height (pixels)
uniform vec3 exactCam1;
out vec4 colour;
// The world ray (b0, a1, b2) in a view's camera, as pixel coordinates of that view; false when it did not see it.
bool inView(vec3 w, vec4 t, vec3 cam, out vec2 st) {
  float vx = w.x * t.z - w.z * t.w;
  float va2 = w.x * t.w + w.z * t.z;
  float vy = w.y * t.x + va2 * t.y;
  float vz = -w.y * t.y + va2 * t.x;
  if (vz <= 0.0) return false;
  vec2 p = vec2(cam.y / 2.0 + cam.x * vx / vz, cam.z / 2.0 - cam.x * vy / vz);
  if (p.x < -0.5 || p.y < -0.5 || p.x > cam.y - 0.5 || p.y > cam.z - 0.5) return false;
  st = (p + 0.5) / cam.yz;
  return true;
}
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
  vec2 st;
  if (exactCount > 0 && inView(vec3(b0, a1, b2), exactTrig0, exactCam0, st)) { colour = vec4(textureLod(exact0, st, 0.0).rgb, 1.0); return; }
  if (exactCount > 1 && inView(vec3(b0, a1, b2), exactTrig1, exactCam1, st)) { colour = vec4(textureLod(exact1, st, 0.0).rgb, 1.0); return; }
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

/** A verified view the shader may sample: its image table index, decoded image and camera. */
export interface GlExactView {
  image: number;
  img: HTMLImageElement;
  pose: ReprojectionSpec;
}

export class GlReprojector {
  private readonly canvas: OffscreenCanvas;
  private readonly gl: WebGL2RenderingContext;
  private readonly uniforms: Record<
    "outSize" | "focal" | "trig" | "exactCount" | "exactTrig0" | "exactTrig1" | "exactCam0" | "exactCam1",
    WebGLUniformLocation
  >;
  private readonly textures = new Map<number, WebGLTexture>();
  private readonly views = new Map<number, { tex: WebGLTexture; width: number; height: number }>();

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
    gl.uniform1i(gl.getUniformLocation(prog, "exact0"), 1);
    gl.uniform1i(gl.getUniformLocation(prog, "exact1"), 2);
    const names = ["outSize", "focal", "trig", "exactCount", "exactTrig0", "exactTrig1", "exactCam0", "exactCam1"] as const;
    this.uniforms = Object.fromEntries(names.map((n) => [n, gl.getUniformLocation(prog, n)!])) as typeof this.uniforms;
    gl.viewport(0, 0, width, height);
    // Units 1 and 2 (the exact views) hold a 1x1 texture until a view is bound: never an empty unit.
    for (const unit of [gl.TEXTURE1, gl.TEXTURE2]) {
      gl.activeTexture(unit);
      gl.bindTexture(gl.TEXTURE_2D, gl.createTexture());
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, 1, 1, 0, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
    }
    gl.activeTexture(gl.TEXTURE0);
  }

  /** Uploads a decoded panorama once (its table index is the key). */
  addPano(n: number, img: TexImageSource): void {
    if (this.textures.has(n)) return;
    const gl = this.gl;
    const tex = gl.createTexture()!;
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, tex);
    gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, img);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    this.textures.set(n, tex);
  }

  /** Uploads a decoded verified view once (its image table index is the key), filtered bilinearly. */
  private viewTexture(n: number, img: HTMLImageElement): { tex: WebGLTexture; width: number; height: number } {
    let v = this.views.get(n);
    if (v) return v;
    const gl = this.gl;
    const tex = gl.createTexture()!;
    gl.activeTexture(gl.TEXTURE3); // a spare unit: units 1 and 2 may hold a view bound a moment ago
    gl.bindTexture(gl.TEXTURE_2D, tex);
    gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, img);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    v = { tex, width: img.naturalWidth, height: img.naturalHeight };
    this.views.set(n, v);
    return v;
  }

  /**
   * The view, as a bitmap the caller owns (and closes), `size` px square; where `exact` (verified
   * views of this panorama, narrower first, at most two) saw a pixel's ray, the pixel is theirs.
   */
  draw(pano: number, v: ReprojectionSpec, exact: readonly GlExactView[] = [], size = this.canvas.width): ImageBitmap {
    const gl = this.gl;
    const tex = this.textures.get(pano);
    if (!tex) throw new Error(`panorama ${pano} was not uploaded`);
    if (this.canvas.width !== size || this.canvas.height !== size) {
      this.canvas.width = size;
      this.canvas.height = size;
      gl.viewport(0, 0, size, size);
    }
    const used = exact.slice(0, 2);
    used.forEach((e, i) => {
      const t = this.viewTexture(e.image, e.img);
      gl.activeTexture(i === 0 ? gl.TEXTURE1 : gl.TEXTURE2);
      gl.bindTexture(gl.TEXTURE_2D, t.tex);
      const p = e.pose;
      gl.uniform4f(
        i === 0 ? this.uniforms.exactTrig0 : this.uniforms.exactTrig1,
        Math.cos(p.pitch * DEG),
        Math.sin(p.pitch * DEG),
        Math.cos(p.heading * DEG),
        Math.sin(p.heading * DEG),
      );
      gl.uniform3f(i === 0 ? this.uniforms.exactCam0 : this.uniforms.exactCam1, (0.5 * t.width) / Math.tan((p.fov * DEG) / 2), t.width, t.height);
    });
    gl.uniform1i(this.uniforms.exactCount, used.length);
    gl.activeTexture(gl.TEXTURE0);
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
