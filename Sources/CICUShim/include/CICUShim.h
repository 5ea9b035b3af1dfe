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

/// Writes ICU's canonical id for a zone id or alias (CLDR's spelling, e.g. "Asia/Calcutta");
/// sets `*isSystemId` to 1 when ICU knows the id as a zone. Returns 0 when ICU knows no such zone.
int32_t cp_icu_canonical_zone_id(const char *zoneId, char *out, int32_t capacity, int32_t *isSystemId);

/// Maps an IANA id to its Windows id through CLDR's table. Returns 0 when there is none.
int32_t cp_icu_iana_to_windows(const char *zoneId, char *out, int32_t capacity);

/// Receives one row of CLDR's Windows table: a Windows id, a region ("001" for the default) and
/// the IANA ids separated by spaces.
typedef void (*cp_windows_mapping_callback)(void *context, const char *windowsId, const char *region,
                                            const char *ianaIds);

/// Calls `callback` once per row of CLDR's Windows ↔ IANA table as ICU carries it; returns the
/// number of rows, or a negative value when ICU has no such table.
int32_t cp_icu_windows_table(cp_windows_mapping_callback callback, void *context);

/// Receives one metazone of CLDR and its golden zone (e.g. "America_Eastern", "America/New_York").
typedef void (*cp_golden_zone_callback)(void *context, const char *metazone, const char *zone);

/// Calls `callback` once per CLDR metazone with its golden zone; returns the count, or a
/// negative value when ICU has no such table.
int32_t cp_icu_metazone_golden_zones(cp_golden_zone_callback callback, void *context);

#ifdef __cplusplus
}
#endif

#endif
