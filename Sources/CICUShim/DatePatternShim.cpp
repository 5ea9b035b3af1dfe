// Date and time patterns for the CSV formats: ICU's SimpleDateFormat behind an opaque handle,
// so a reader opens a pattern once and parses every cell of a column with it.
#include "CICUShim.h"

#include <cstring>
#include <memory>
#include <unicode/locid.h>
#include <unicode/smpdtfmt.h>
#include <unicode/timezone.h>
#include <unicode/gregocal.h>
#include <unicode/unistr.h>

struct cp_date_pattern {
    std::unique_ptr<icu::SimpleDateFormat> format;
    std::unique_ptr<icu::Calendar> calendar;
};

namespace {

int32_t copyUTF8(const icu::UnicodeString &text, char *out, int32_t capacity) {
    std::string utf8;
    text.toUTF8String(utf8);
    if (static_cast<int32_t>(utf8.size()) + 1 > capacity) return -1;
    std::memcpy(out, utf8.data(), utf8.size());
    out[utf8.size()] = '\0';
    return static_cast<int32_t>(utf8.size());
}

// CLDR 42 (ICU 72) puts U+202F NARROW NO-BREAK SPACE before "a" in English time patterns and
// U+00A0 in some others; spreadsheets and Outlook write a plain space, so patterns taken from a
// locale use a plain space in both directions.
void plainSpaces(icu::UnicodeString &pattern) {
    pattern.findAndReplace(icu::UnicodeString(static_cast<UChar>(0x202F)), icu::UnicodeString(" "));
    pattern.findAndReplace(icu::UnicodeString(static_cast<UChar>(0x00A0)), icu::UnicodeString(" "));
}

// Outlook and Excel write four-digit years where CLDR's short date patterns say "yy" (de: dd.MM.yy);
// a two-digit year read with "yy" would be put in the wrong century, so "yy" becomes "yyyy".
void fullYears(icu::UnicodeString &pattern) {
    icu::UnicodeString result;
    bool quoted = false;
    for (int32_t i = 0; i < pattern.length();) {
        UChar c = pattern.charAt(i);
        if (c == u'\'') {
            quoted = !quoted;
            result.append(c);
            ++i;
            continue;
        }
        if (!quoted && c == u'y') {
            int32_t run = 0;
            while (i + run < pattern.length() && pattern.charAt(i + run) == u'y') ++run;
            result.append(icu::UnicodeString(run == 2 ? "yyyy" : (run == 1 ? "y" : "")));
            if (run > 2) result.append(pattern, i, run);
            i += run;
            continue;
        }
        result.append(c);
        ++i;
    }
    pattern = result;
}

}  // namespace

extern "C" int32_t cp_icu_locale_date_pattern(const char *locale, int32_t kind, char *out, int32_t capacity) {
    icu::Locale loc(locale);
    std::unique_ptr<icu::DateFormat> format;
    switch (kind) {
    case CP_DATE_SHORT: format.reset(icu::DateFormat::createDateInstance(icu::DateFormat::kShort, loc)); break;
    case CP_TIME_SHORT: format.reset(icu::DateFormat::createTimeInstance(icu::DateFormat::kShort, loc)); break;
    case CP_TIME_MEDIUM: format.reset(icu::DateFormat::createTimeInstance(icu::DateFormat::kMedium, loc)); break;
    default: return -1;
    }
    auto *simple = dynamic_cast<icu::SimpleDateFormat *>(format.get());
    if (simple == nullptr) return -1;
    icu::UnicodeString pattern;
    simple->toPattern(pattern);
    plainSpaces(pattern);
    if (kind == CP_DATE_SHORT) fullYears(pattern);
    return copyUTF8(pattern, out, capacity);
}

extern "C" int32_t cp_icu_locale_is_known(const char *locale) {
    icu::Locale loc(locale);
    if (loc.isBogus() || std::strlen(loc.getLanguage()) == 0) return 0;
    int32_t count = 0;
    const icu::Locale *available = icu::Locale::getAvailableLocales(count);
    for (int32_t i = 0; i < count; ++i) {
        if (std::strcmp(available[i].getLanguage(), loc.getLanguage()) == 0) return 1;
    }
    return 0;
}

extern "C" cp_date_pattern *cp_icu_date_pattern_open(const char *locale, const char *pattern) {
    UErrorCode status = U_ZERO_ERROR;
    icu::Locale loc(locale);
    auto handle = std::make_unique<cp_date_pattern>();
    handle->format = std::make_unique<icu::SimpleDateFormat>(icu::UnicodeString::fromUTF8(pattern), loc, status);
    if (U_FAILURE(status)) return nullptr;
    // Wall-clock fields only: a GMT proleptic Gregorian calendar never shifts a value across a
    // daylight-saving gap, and a date before 1582 keeps its Gregorian fields.
    handle->calendar = std::make_unique<icu::GregorianCalendar>(*icu::TimeZone::getGMT(), loc, status);
    if (U_FAILURE(status)) return nullptr;
    static_cast<icu::GregorianCalendar *>(handle->calendar.get())->setGregorianChange(-8.64e15, status);
    if (U_FAILURE(status)) return nullptr;
    handle->calendar->setLenient(false);
    handle->format->adoptCalendar(handle->calendar->clone());
    handle->format->setLenient(false);
    return handle.release();
}

extern "C" void cp_icu_date_pattern_close(cp_date_pattern *handle) { delete handle; }

extern "C" int32_t cp_icu_date_pattern_parse(cp_date_pattern *handle, const char *text, int32_t *fields) {
    if (handle == nullptr) return -1;
    icu::UnicodeString input = icu::UnicodeString::fromUTF8(text);
    icu::Calendar *calendar = handle->calendar.get();
    calendar->clear();
    icu::ParsePosition position(0);
    handle->format->parse(input, *calendar, position);
    if (position.getErrorIndex() >= 0 || position.getIndex() != input.length()) return 0;
    UErrorCode status = U_ZERO_ERROR;
    fields[0] = calendar->get(UCAL_EXTENDED_YEAR, status);
    fields[1] = calendar->get(UCAL_MONTH, status) + 1;
    fields[2] = calendar->get(UCAL_DATE, status);
    fields[3] = calendar->get(UCAL_HOUR_OF_DAY, status);
    fields[4] = calendar->get(UCAL_MINUTE, status);
    fields[5] = calendar->get(UCAL_SECOND, status);
    return U_SUCCESS(status) ? 1 : 0;
}

extern "C" int32_t cp_icu_date_pattern_format(cp_date_pattern *handle, const int32_t *fields, char *out,
                                              int32_t capacity) {
    if (handle == nullptr) return -1;
    UErrorCode status = U_ZERO_ERROR;
    icu::Calendar *calendar = handle->calendar.get();
    calendar->clear();
    calendar->set(UCAL_EXTENDED_YEAR, fields[0]);
    calendar->set(UCAL_MONTH, fields[1] - 1);
    calendar->set(UCAL_DATE, fields[2]);
    calendar->set(UCAL_HOUR_OF_DAY, fields[3]);
    calendar->set(UCAL_MINUTE, fields[4]);
    calendar->set(UCAL_SECOND, fields[5]);
    UDate when = calendar->getTime(status);
    if (U_FAILURE(status)) return -1;
    icu::UnicodeString result;
    handle->format->format(when, result);
    return copyUTF8(result, out, capacity);
}
