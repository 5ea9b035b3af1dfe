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

/// Writes the CLDR release ICU's data comes from (e.g. "42.0") into `out`.
int32_t cp_icu_cldr_version(char *out, int32_t capacity);

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

// --- Date and time patterns (CSV formats; DatePatternShim.cpp) ---

/// Which of a locale's patterns `cp_icu_locale_date_pattern` returns.
enum { CP_DATE_SHORT = 0, CP_TIME_SHORT = 1, CP_TIME_MEDIUM = 2 };

/// Writes a locale's date or time pattern (e.g. "dd.MM.yyyy" for de_DE), with plain spaces and
/// four-digit years, into `out`.
int32_t cp_icu_locale_date_pattern(const char *locale, int32_t kind, char *out, int32_t capacity);

/// Returns 1 when ICU has data for the locale's language, else 0.
int32_t cp_icu_locale_is_known(const char *locale);

/// An ICU date pattern opened for one locale; opaque to callers.
typedef struct cp_date_pattern cp_date_pattern;

/// Opens a pattern (ICU syntax, e.g. "M/d/yyyy") for a locale; NULL when the pattern is invalid.
cp_date_pattern *cp_icu_date_pattern_open(const char *locale, const char *pattern);

/// Closes a pattern opened by `cp_icu_date_pattern_open`.
void cp_icu_date_pattern_close(cp_date_pattern *pattern);

/// Parses the whole of `text` strictly; on success writes year, month (1-12), day, hour, minute and
/// second into `fields[0..5]` and returns 1; returns 0 when the text does not match.
int32_t cp_icu_date_pattern_parse(cp_date_pattern *pattern, const char *text, int32_t *fields);

/// Formats year, month, day, hour, minute and second (`fields[0..5]`) into `out`.
int32_t cp_icu_date_pattern_format(cp_date_pattern *pattern, const int32_t *fields, char *out, int32_t capacity);

// --- end of date and time patterns ---

// --- Calendar systems for RFC 7529 RSCALE (CalendarScaleShim.cpp) ---

/// One of ICU's calendars (CLDR name, e.g. "chinese", "hebrew", "islamic-umalqura"); opaque to
/// callers, and used by one thread at a time.
typedef struct cp_calendar_scale cp_calendar_scale;

/// Opens a calendar by its CLDR name (lower case); NULL when ICU does not have that calendar.
cp_calendar_scale *cp_icu_scale_open(const char *name);

/// Closes a calendar opened by `cp_icu_scale_open`.
void cp_icu_scale_close(cp_calendar_scale *scale);

/// The calendar's date of a Gregorian day (days since 1970-01-01): ICU's extended year, the
/// RFC 7529 month number and leap flag (Hebrew Adar I is 5 with the leap flag) and the day of the
/// month. Returns 1, or 0 when ICU fails.
int32_t cp_icu_scale_date(cp_calendar_scale *scale, int64_t day, int32_t *extendedYear, int32_t *month,
                          int32_t *isLeapMonth, int32_t *dayOfMonth);

/// The months of one extended year in order: for each, its RFC 7529 number and leap flag, its
/// first day (days since 1970-01-01) and its length in days. Returns the number of months, or a
/// negative value when ICU fails or `capacity` is too small.
int32_t cp_icu_scale_year(cp_calendar_scale *scale, int32_t extendedYear, int32_t *numbers, int32_t *leapFlags,
                          int64_t *firstDays, int32_t *lengths, int32_t capacity);

// --- end of calendar systems ---

#ifdef __cplusplus
}
#endif

#endif
