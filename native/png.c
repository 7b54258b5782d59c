// PNG's Paeth filter (PNG spec 9.4) over RGBA rows, for src/engines/png-writer.ts: the filter
// was the larger half of encoding a 768x768 picture in JavaScript (13 ms of a QR render's 90).
#include <node_api.h>
#include <stdint.h>
#include <stdlib.h>

static void paeth_rows(const uint8_t *data, size_t width, size_t height, uint8_t *out) {
  const size_t stride = width * 4;
  for (size_t y = 0; y < height; y++) {
    const uint8_t *row = data + y * stride;
    const uint8_t *up = y > 0 ? row - stride : NULL;
    uint8_t *o = out + y * (stride + 1);
    *o++ = 4;
    for (size_t i = 0; i < stride; i++) {
      const int a = i >= 4 ? row[i - 4] : 0;
      const int b = up ? up[i] : 0;
      const int c = up && i >= 4 ? up[i - 4] : 0;
      const int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
      const int predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      o[i] = (uint8_t)(row[i] - predicted);
    }
  }
}

// paethRows(rgba: Uint8Array, width, height, out: Uint8Array of (width * 4 + 1) * height)
static napi_value paeth(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  uint32_t width = 0, height = 0;
  napi_typedarray_type in_type, out_type;
  size_t in_length, out_length;
  void *in, *out;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 4 ||
      napi_get_typedarray_info(env, argv[0], &in_type, &in_length, &in, NULL, NULL) != napi_ok ||
      napi_get_value_uint32(env, argv[1], &width) != napi_ok ||
      napi_get_value_uint32(env, argv[2], &height) != napi_ok ||
      napi_get_typedarray_info(env, argv[3], &out_type, &out_length, &out, NULL, NULL) != napi_ok ||
      (in_type != napi_uint8_array && in_type != napi_uint8_clamped_array) ||
      out_type != napi_uint8_array || width == 0 || height == 0 || width > 65535 || height > 65535) {
    napi_throw_type_error(env, NULL, "paethRows takes RGBA bytes, their width and height, and an output array");
    return NULL;
  }
  if (in_length < (size_t)width * height * 4 || out_length < ((size_t)width * 4 + 1) * height) {
    napi_throw_range_error(env, NULL, "paethRows: the pixels or the output are smaller than width x height");
    return NULL;
  }
  paeth_rows(in, width, height, out);
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "paethRows", NAPI_AUTO_LENGTH, paeth, NULL, &fn);
  napi_set_named_property(env, exports, "paethRows", fn);
  return exports;
}
