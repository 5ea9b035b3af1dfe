#include "CICUShim.h"

#include <cstring>
#include <unicode/ucal.h>
#include <unicode/ures.h>
#include <unicode/uclean.h>
#include <unicode/ulocdata.h>
#include <unicode/ustring.h>
#include <unicode/uversion.h>

namespace {

int32_t copyOut(const char *text, char *out, int32_t capacity) {
    int32_t length = static_cast<int32_t>(std::strlen(text));
    if (length + 1 > capacity) return -1;
    std::memcpy(out, text, static_cast<size_t>(length) + 1);
    return length;
}

// Converts ICU's UTF-16 result into the caller's UTF-8 buffer.
int32_t utf16ToOut(const UChar *text, int32_t length, char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t written = 0;
    u_strToUTF8(out, capacity, &written, text, length, &status);
    if (U_FAILURE(status) || written >= capacity) return -1;
    out[written] = '\0';
    return written;
}

bool utf8ToUTF16(const char *text, UChar *buffer, int32_t capacity, int32_t *length) {
    UErrorCode status = U_ZERO_ERROR;
    u_strFromUTF8(buffer, capacity, length, text, -1, &status);
    return U_SUCCESS(status) && *length < capacity;
}

}  // namespace

extern "C" int32_t cp_icu_version(char *out, int32_t capacity) {
    UVersionInfo info;
    u_getVersion(info);
    char text[U_MAX_VERSION_STRING_LENGTH];
    u_versionToString(info, text);
    return copyOut(text, out, capacity);
}

extern "C" int32_t cp_icu_tzdata_version(char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    const char *version = ucal_getTZDataVersion(&status);
    if (U_FAILURE(status) || version == nullptr) return -1;
    return copyOut(version, out, capacity);
}

extern "C" int32_t cp_icu_cldr_version(char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UVersionInfo version;
    ulocdata_getCLDRVersion(version, &status);
    if (U_FAILURE(status)) return -1;
    char text[U_MAX_VERSION_STRING_LENGTH];
    u_versionToString(version, text);
    return copyOut(text, out, capacity);
}

extern "C" int32_t cp_icu_windows_to_iana(const char *windowsId, const char *region, char *out,
                                          int32_t capacity) {
    UChar windows[128];
    int32_t windowsLength = 0;
    if (!utf8ToUTF16(windowsId, windows, 128, &windowsLength)) return -1;
    UChar result[128];
    UErrorCode status = U_ZERO_ERROR;
    int32_t length = ucal_getTimeZoneIDForWindowsID(windows, windowsLength, region, result, 128, &status);
    if (U_FAILURE(status)) return -1;
    if (length == 0) return 0;
    return utf16ToOut(result, length, out, capacity);
}

extern "C" int32_t cp_icu_canonical_zone_id(const char *zoneId, char *out, int32_t capacity, int32_t *isSystemId) {
    UChar zone[256];
    int32_t zoneLength = 0;
    if (!utf8ToUTF16(zoneId, zone, 256, &zoneLength)) return -1;
    UChar result[256];
    UErrorCode status = U_ZERO_ERROR;
    UBool system = false;
    int32_t length = ucal_getCanonicalTimeZoneID(zone, zoneLength, result, 256, &system, &status);
    // ICU reports an unknown id as U_ILLEGAL_ARGUMENT_ERROR; the caller only needs "none".
    if (U_FAILURE(status) || length <= 0) return 0;
    if (isSystemId != nullptr) *isSystemId = system ? 1 : 0;
    return utf16ToOut(result, length, out, capacity);
}

extern "C" int32_t cp_icu_iana_to_windows(const char *zoneId, char *out, int32_t capacity) {
    UChar zone[256];
    int32_t zoneLength = 0;
    if (!utf8ToUTF16(zoneId, zone, 256, &zoneLength)) return -1;
    UChar result[256];
    UErrorCode status = U_ZERO_ERROR;
    int32_t length = ucal_getWindowsTimeZoneID(zone, zoneLength, result, 256, &status);
    if (U_FAILURE(status)) return -1;
    if (length == 0) return 0;
    return utf16ToOut(result, length, out, capacity);
}

extern "C" int32_t cp_icu_windows_table(cp_windows_mapping_callback callback, void *context) {
    // CLDR's windowsZones resource: mapTimezones/<Windows id>/<region> = "IANA ids separated by spaces".
    // ICU offers no C enumeration of it, so read the resource bundle directly.
    UErrorCode status = U_ZERO_ERROR;
    UResourceBundle *root = ures_openDirect(nullptr, "windowsZones", &status);
    if (U_FAILURE(status)) return -1;
    UResourceBundle *table = ures_getByKey(root, "mapTimezones", nullptr, &status);
    if (U_FAILURE(status)) {
        ures_close(root);
        return -1;
    }
    int32_t count = 0;
    UResourceBundle *windows = nullptr;
    while (ures_hasNext(table)) {
        windows = ures_getNextResource(table, windows, &status);
        if (U_FAILURE(status)) break;
        const char *windowsId = ures_getKey(windows);
        UResourceBundle *entry = nullptr;
        while (ures_hasNext(windows)) {
            entry = ures_getNextResource(windows, entry, &status);
            if (U_FAILURE(status)) break;
            int32_t length = 0;
            const UChar *ids = ures_getString(entry, &length, &status);
            if (U_FAILURE(status)) break;
            char text[1024];
            if (utf16ToOut(ids, length, text, sizeof text) < 0) continue;
            callback(context, windowsId, ures_getKey(entry), text);
            count += 1;
        }
        if (entry != nullptr) ures_close(entry);
        if (U_FAILURE(status)) break;
    }
    if (windows != nullptr) ures_close(windows);
    ures_close(table);
    ures_close(root);
    return U_FAILURE(status) ? -1 : count;
}

extern "C" int32_t cp_icu_metazone_golden_zones(cp_golden_zone_callback callback, void *context) {
    // CLDR's metaZones resource: mapTimezones/<metazone>/001 = the metazone's "golden" zone,
    // the one CLDR takes as its representative (America_Eastern → America/New_York).
    UErrorCode status = U_ZERO_ERROR;
    UResourceBundle *root = ures_openDirect(nullptr, "metaZones", &status);
    if (U_FAILURE(status)) return -1;
    UResourceBundle *table = ures_getByKey(root, "mapTimezones", nullptr, &status);
    if (U_FAILURE(status)) {
        ures_close(root);
        return -1;
    }
    int32_t count = 0;
    UResourceBundle *metazone = nullptr;
    while (ures_hasNext(table)) {
        metazone = ures_getNextResource(table, metazone, &status);
        if (U_FAILURE(status)) break;
        UErrorCode lookup = U_ZERO_ERROR;
        int32_t length = 0;
        const UChar *zone = ures_getStringByKey(metazone, "001", &length, &lookup);
        if (U_FAILURE(lookup)) continue;
        char text[256];
        if (utf16ToOut(zone, length, text, sizeof text) < 0) continue;
        callback(context, ures_getKey(metazone), text);
        count += 1;
    }
    if (metazone != nullptr) ures_close(metazone);
    ures_close(table);
    ures_close(root);
    return U_FAILURE(status) ? -1 : count;
}
