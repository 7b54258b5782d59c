// glibc's malloc, told to give memory back. Two calls for `serve` and `worker`:
//
// setMmapThreshold(bytes), at start: by default the size above which a block gets a mapping of its
// own rises to the largest block freed so far (up to 32 MiB), so after a few images are freed,
// every image buffer of that size lands in a thread's arena, where freed memory stays resident
// for the life of the process (a worker thread's arena held 64 MiB after a few QR renders, with
// the thread gone). A fixed threshold gives each large block back to the system when freed. Set
// at run time, it holds however the process was started (MALLOC_MMAP_THRESHOLD_ would have to be
// in its environment).
//
// trim(), when the process has gone quiet: freed small blocks between live ones stay resident
// until malloc_trim hands their pages back (SQLite's page cache, once released, is such memory).
#include <malloc.h>
#include <node_api.h>

// true when glibc took the threshold.
static napi_value set_mmap_threshold(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int64_t bytes = 0;
  napi_value result;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
      napi_get_value_int64(env, argv[0], &bytes) != napi_ok || bytes <= 0 || bytes > (1 << 30)) {
    napi_throw_range_error(env, NULL, "setMmapThreshold takes a byte count from 1 to 2^30");
    return NULL;
  }
  napi_get_boolean(env, mallopt(M_MMAP_THRESHOLD, (int)bytes) == 1, &result);
  return result;
}

// true when some memory went back to the system.
static napi_value trim(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value result;
  napi_get_boolean(env, malloc_trim(0) == 1, &result);
  return result;
}

static void export_function(napi_env env, napi_value exports, const char* name, napi_callback call) {
  napi_value fn;
  napi_create_function(env, name, NAPI_AUTO_LENGTH, call, NULL, &fn);
  napi_set_named_property(env, exports, name, fn);
}

NAPI_MODULE_INIT() {
  export_function(env, exports, "setMmapThreshold", set_mmap_threshold);
  export_function(env, exports, "trim", trim);
  return exports;
}
