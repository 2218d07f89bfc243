// libcurl's curl_easy_setopt() is variadic, which Swift cannot call: these typed
// wrappers are the only options the webhook sink sets.
#include <curl/curl.h>

static inline CURLcode somniq_curl_set_string(CURL *c, CURLoption o, const char *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode somniq_curl_set_long(CURL *c, CURLoption o, long v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode somniq_curl_set_pointer(CURL *c, CURLoption o, void *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode somniq_curl_set_write_function(CURL *c, size_t (*f)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, f);
}
static inline CURLcode somniq_curl_response_code(CURL *c, long *code) { return curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, code); }
