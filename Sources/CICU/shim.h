// Carries ICU's pkg-config flags to CICUShim. No Swift file imports this module: ICU's
// renamed symbols and its UErrorCode clash with the ICU bundled in Foundation.
#include <unicode/uversion.h>
