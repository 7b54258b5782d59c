// RGBA frames to planar YUV 4:2:0 (I420) for the video encoder (src/engines/video/yuv.ts says why
// it is done here). BT.601 coefficients, limited range (Y 16-235), as ffmpeg's own conversion:
// each chroma sample from the mean of its 2x2 block, a lone edge row or column counted twice.
// Plain loops over bytes, which the compiler vectorises at -O3.
#include <node_api.h>
#include <stdint.h>
#include <stddef.h>

static void convert(const uint8_t *rgba, size_t width, size_t height, uint8_t *out) {
  const size_t cw = (width + 1) / 2, ch = (height + 1) / 2;
  uint8_t *u = out + width * height;
  uint8_t *v = u + cw * ch;
  for (size_t y = 0; y < height; y++) {
    const uint8_t *p = rgba + y * width * 4;
    uint8_t *l = out + y * width;
    for (size_t x = 0; x < width; x++) {
      l[x] = (uint8_t)(((66 * p[4 * x] + 129 * p[4 * x + 1] + 25 * p[4 * x + 2] + 128) >> 8) + 16);
    }
  }
  for (size_t cy = 0; cy < ch; cy++) {
    const uint8_t *r0 = rgba + 2 * cy * width * 4;
    const uint8_t *r1 = 2 * cy + 1 < height ? r0 + width * 4 : r0;
    for (size_t cx = 0; cx < cw; cx++) {
      const size_t a = 8 * cx, b = 2 * cx + 1 < width ? a + 4 : a;
      const int r = r0[a] + r0[b] + r1[a] + r1[b];
      const int g = r0[a + 1] + r0[b + 1] + r1[a + 1] + r1[b + 1];
      const int bl = r0[a + 2] + r0[b + 2] + r1[a + 2] + r1[b + 2];
      u[cy * cw + cx] = (uint8_t)(((-38 * r - 74 * g + 112 * bl + 512) >> 10) + 128);
      v[cy * cw + cx] = (uint8_t)(((112 * r - 94 * g - 18 * bl + 512) >> 10) + 128);
    }
  }
}

static int bytes_of(napi_env env, napi_value value, uint8_t **data, size_t *length) {
  napi_typedarray_type type;
  size_t count;
  void *raw;
  if (napi_get_typedarray_info(env, value, &type, &count, &raw, NULL, NULL) != napi_ok) return 0;
  if (type == napi_int32_array || type == napi_uint32_array) count *= 4;
  else if (type != napi_uint8_array && type != napi_uint8_clamped_array) return 0;
  *data = raw;
  *length = count;
  return 1;
}

// rgbaToI420(frame: Int32Array | Uint8Array, width, height, out: Uint8Array): undefined
static napi_value rgba_to_i420(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  uint32_t width = 0, height = 0;
  uint8_t *rgba, *out;
  size_t rgba_length, out_length;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 4 ||
      !bytes_of(env, argv[0], &rgba, &rgba_length) ||
      napi_get_value_uint32(env, argv[1], &width) != napi_ok ||
      napi_get_value_uint32(env, argv[2], &height) != napi_ok ||
      !bytes_of(env, argv[3], &out, &out_length) || width == 0 || height == 0 || width > 16384 ||
      height > 16384) {
    napi_throw_type_error(env, NULL, "rgbaToI420 takes an RGBA frame, its width and height, and an output array");
    return NULL;
  }
  const size_t cw = (width + 1) / 2, ch = (height + 1) / 2;
  if (rgba_length < (size_t)width * height * 4 || out_length < (size_t)width * height + 2 * cw * ch) {
    napi_throw_range_error(env, NULL, "rgbaToI420: the frame or the output is smaller than width x height");
    return NULL;
  }
  convert(rgba, width, height, out);
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "rgbaToI420", NAPI_AUTO_LENGTH, rgba_to_i420, NULL, &fn);
  napi_set_named_property(env, exports, "rgbaToI420", fn);
  return exports;
}
