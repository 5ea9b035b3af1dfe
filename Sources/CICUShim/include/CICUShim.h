// The C face of calport's ICU shim: plain C and stdint types only, so Swift never sees ICU's
// headers. Strings are UTF-8 and NUL-terminated; results are written into caller buffers and
// the functions return the result's length in bytes, or a negative value on error.
#ifndef CICUSHIM_H
#define CICUSHIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Writes ICU's library version (e.g. "72.1") into `out`.
int32_t cp_icu_version(char *out, int32_t capacity);

/// Writes the version of the time-zone data ICU has loaded (e.g. "2022e") into `out`.
int32_t cp_icu_tzdata_version(char *out, int32_t capacity);

/// Maps a Windows time-zone id to an IANA id through CLDR's table; `region` may be NULL.
/// Returns 0 when the id is unknown.
int32_t cp_icu_windows_to_iana(const char *windowsId, const char *region, char *out, int32_t capacity);

#ifdef __cplusplus
}
#endif

#endif
