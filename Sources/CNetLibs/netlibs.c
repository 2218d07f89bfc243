#include "CNetLibs.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

// Each library's functions, typed from its own header, resolved once by dlsym.

#define CURL_FUNCTIONS(X) X(global_init) X(easy_init) X(easy_cleanup) X(easy_reset) X(easy_perform) \
    X(easy_strerror) X(slist_append) X(slist_free_all) X(easy_setopt) X(easy_getinfo)
#define MOSQUITTO_FUNCTIONS(X) X(lib_init) X(new) X(destroy) X(int_option) X(will_set) X(username_pw_set) \
    X(tls_set) X(connect_callback_set) X(publish_callback_set) X(disconnect_callback_set) \
    X(reconnect_delay_set) X(connect_async) X(loop_start) X(loop_stop) X(disconnect) X(publish) \
    X(strerror) X(connack_string)

#define CURL_FIELD(f) __typeof__(&curl_##f) f;
#define MOSQUITTO_FIELD(f) __typeof__(&mosquitto_##f) f;
static struct { CURL_FUNCTIONS(CURL_FIELD) } curl;
static struct { MOSQUITTO_FUNCTIONS(MOSQUITTO_FIELD) } mosq;

static pthread_once_t curl_once = PTHREAD_ONCE_INIT, mosq_once = PTHREAD_ONCE_INIT;
// Why a library could not be loaded, copied out of dlerror's buffer (which the next
// dlerror call, or the thread's end, frees); empty when it loaded.
static char curl_error[256], mosq_error[256];

static void keep_error(char *error, size_t size) {
    const char *why = dlerror();
    snprintf(error, size, "%s", why ? why : "unknown error");
}

#define CURL_RESOLVE(f) if (!(curl.f = (__typeof__(curl.f))dlsym(lib, "curl_" #f))) goto failed;
static void load_curl(void) {
    void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!lib) { keep_error(curl_error, sizeof curl_error); return; }
    CURL_FUNCTIONS(CURL_RESOLVE)
    return;
failed:
    keep_error(curl_error, sizeof curl_error);
    dlclose(lib);
}

#define MOSQUITTO_RESOLVE(f) if (!(mosq.f = (__typeof__(mosq.f))dlsym(lib, "mosquitto_" #f))) goto failed;
static void load_mosquitto(void) {
    void *lib = dlopen("libmosquitto.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) { keep_error(mosq_error, sizeof mosq_error); return; }
    MOSQUITTO_FUNCTIONS(MOSQUITTO_RESOLVE)
    return;
failed:
    keep_error(mosq_error, sizeof mosq_error);
    dlclose(lib);
}

const char *somniq_curl_load(void) {
    pthread_once(&curl_once, load_curl);
    return curl_error[0] ? curl_error : NULL;
}

const char *somniq_mosquitto_load(void) {
    pthread_once(&mosq_once, load_mosquitto);
    return mosq_error[0] ? mosq_error : NULL;
}

CURLcode somniq_curl_global_init(long flags) { return curl.global_init(flags); }
CURL *somniq_curl_easy_init(void) { return curl.easy_init(); }
void somniq_curl_easy_cleanup(CURL *c) { curl.easy_cleanup(c); }
void somniq_curl_easy_reset(CURL *c) { curl.easy_reset(c); }
CURLcode somniq_curl_easy_perform(CURL *c) { return curl.easy_perform(c); }
const char *somniq_curl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }
struct curl_slist *somniq_curl_slist_append(struct curl_slist *list, const char *s) { return curl.slist_append(list, s); }
void somniq_curl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }
CURLcode somniq_curl_set_string(CURL *c, CURLoption o, const char *v) { return curl.easy_setopt(c, o, v); }
CURLcode somniq_curl_set_long(CURL *c, CURLoption o, long v) { return curl.easy_setopt(c, o, v); }
CURLcode somniq_curl_set_pointer(CURL *c, CURLoption o, void *v) { return curl.easy_setopt(c, o, v); }
CURLcode somniq_curl_set_write_function(CURL *c, size_t (*f)(char *, size_t, size_t, void *)) {
    return curl.easy_setopt(c, CURLOPT_WRITEFUNCTION, f);
}
CURLcode somniq_curl_response_code(CURL *c, long *code) { return curl.easy_getinfo(c, CURLINFO_RESPONSE_CODE, code); }

int somniq_mosquitto_lib_init(void) { return mosq.lib_init(); }
struct mosquitto *somniq_mosquitto_new(const char *id, bool clean_session, void *obj) { return mosq.new(id, clean_session, obj); }
void somniq_mosquitto_destroy(struct mosquitto *m) { mosq.destroy(m); }
int somniq_mosquitto_int_option(struct mosquitto *m, enum mosq_opt_t option, int value) { return mosq.int_option(m, option, value); }
int somniq_mosquitto_will_set(struct mosquitto *m, const char *topic, int payloadlen, const void *payload, int qos, bool retain) {
    return mosq.will_set(m, topic, payloadlen, payload, qos, retain);
}
int somniq_mosquitto_username_pw_set(struct mosquitto *m, const char *username, const char *password) {
    return mosq.username_pw_set(m, username, password);
}
int somniq_mosquitto_tls_set(struct mosquitto *m, const char *cafile, const char *capath, const char *certfile,
                             const char *keyfile, int (*pw_callback)(char *buf, int size, int rwflag, void *userdata)) {
    return mosq.tls_set(m, cafile, capath, certfile, keyfile, pw_callback);
}
void somniq_mosquitto_connect_callback_set(struct mosquitto *m, void (*f)(struct mosquitto *, void *, int)) { mosq.connect_callback_set(m, f); }
void somniq_mosquitto_publish_callback_set(struct mosquitto *m, void (*f)(struct mosquitto *, void *, int)) { mosq.publish_callback_set(m, f); }
void somniq_mosquitto_disconnect_callback_set(struct mosquitto *m, void (*f)(struct mosquitto *, void *, int)) { mosq.disconnect_callback_set(m, f); }
int somniq_mosquitto_reconnect_delay_set(struct mosquitto *m, unsigned int delay, unsigned int delay_max, bool exponential) {
    return mosq.reconnect_delay_set(m, delay, delay_max, exponential);
}
int somniq_mosquitto_connect_async(struct mosquitto *m, const char *host, int port, int keepalive) {
    return mosq.connect_async(m, host, port, keepalive);
}
int somniq_mosquitto_loop_start(struct mosquitto *m) { return mosq.loop_start(m); }
int somniq_mosquitto_loop_stop(struct mosquitto *m, bool force) { return mosq.loop_stop(m, force); }
int somniq_mosquitto_disconnect(struct mosquitto *m) { return mosq.disconnect(m); }
int somniq_mosquitto_publish(struct mosquitto *m, int *mid, const char *topic, int payloadlen, const void *payload, int qos, bool retain) {
    return mosq.publish(m, mid, topic, payloadlen, payload, qos, retain);
}
const char *somniq_mosquitto_strerror(int e) { return mosq.strerror(e); }
const char *somniq_mosquitto_connack_string(int code) { return mosq.connack_string(code); }
