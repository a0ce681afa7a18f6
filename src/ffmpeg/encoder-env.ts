/**
 * The environment ffmpeg runs in: glibc's allocator told to keep the memory
 * it frees. By default glibc gives a block of more than 128 KB (later, more
 * than the largest block freed so far) its own mapping and returns it to the
 * kernel as soon as it is freed; ffmpeg and x264 allocate and free
 * frame-sized buffers all the time, so each new one was faulted in and zeroed
 * again (as 2 MB huge pages where x264 asks for them: `perf` put 5% of a
 * render's samples in the kernel's page clearing, all in ffmpeg). With blocks
 * up to 32 MB from the heap, and up to 256 MB of freed heap kept, x264 alone
 * on Trieste's 389 raw frames at medium took 7.7 s instead of 8.6 s (5
 * interleaved pairs; system time 0.5 s instead of 1.5 s; peak RSS 313 MB
 * instead of 319 MB), and writes the same bytes. Other C libraries ignore
 * the variable.
 */

/** glibc's tunables for ffmpeg (see above). */
export const ENCODER_MALLOC = "glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=268435456";

/** `env` with ENCODER_MALLOC, unless it sets GLIBC_TUNABLES itself (set it empty to run ffmpeg with glibc's defaults). */
export function encoderEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return env.GLIBC_TUNABLES !== undefined ? env : { ...env, GLIBC_TUNABLES: ENCODER_MALLOC };
}
