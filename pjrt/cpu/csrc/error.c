/*
 * error.c: PJRT_Error and PJRT_Event.
 *
 * An error is one allocation holding its code and message; the caller
 * frees it with PJRT_Error_Destroy. When even that allocation fails the
 * plugin returns one static RESOURCE_EXHAUSTED error, which Destroy
 * ignores.
 *
 * An event is owned by whoever received it (PJRT_Event_Destroy) and, while
 * pending, by the thread that will complete it: hence the reference count.
 * Await and Error hand out a fresh copy of the event's error each time.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static PJRT_Error oom_error = {
    .code = PJRT_Error_Code_RESOURCE_EXHAUSTED,
    .is_static = true,
    .len = 0,
};
static const char oom_message[] = "stela cpu: out of memory";

PJRT_Error* stela_oom(void) { return &oom_error; }

PJRT_Error* stela_error_copy(PJRT_Error_Code code, const char* msg, size_t len) {
  PJRT_Error* e = malloc(sizeof(PJRT_Error) + len + 1);
  if (e == NULL) return stela_oom();
  e->code = code;
  e->is_static = false;
  e->len = len;
  if (len > 0) memcpy(e->msg, msg, len);
  e->msg[len] = '\0';
  return e;
}

PJRT_Error* stela_verror(PJRT_Error_Code code, const char* fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) n = 0;
  PJRT_Error* e = malloc(sizeof(PJRT_Error) + (size_t)n + 1);
  if (e == NULL) return stela_oom();
  e->code = code;
  e->is_static = false;
  vsnprintf(e->msg, (size_t)n + 1, fmt, ap);
  e->len = strlen(e->msg);
  return e;
}

PJRT_Error* stela_error(PJRT_Error_Code code, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  PJRT_Error* e = stela_verror(code, fmt, ap);
  va_end(ap);
  return e;
}

void stela_error_free(PJRT_Error* err) {
  if (err != NULL && !err->is_static) free(err);
}

static const char* error_text(const PJRT_Error* e, size_t* len) {
  if (e->is_static) {
    *len = sizeof(oom_message) - 1;
    return oom_message;
  }
  *len = e->len;
  return e->msg;
}

/* PJRT_Error_Destroy and PJRT_Error_Message return void, so they cannot
   report a short struct_size: they read the one input they need. */
void stela_Error_Destroy(PJRT_Error_Destroy_Args* args) {
  if (args == NULL || !STELA_HAS(PJRT_Error_Destroy_Args, args, error)) return;
  stela_error_free(args->error);
}

void stela_Error_Message(PJRT_Error_Message_Args* args) {
  if (args == NULL || !STELA_HAS(PJRT_Error_Message_Args, args, message_size)) return;
  if (args->error == NULL) {
    args->message = "";
    args->message_size = 0;
    return;
  }
  size_t len;
  args->message = error_text(args->error, &len);
  args->message_size = len;
}

PJRT_Error* stela_Error_GetCode(PJRT_Error_GetCode_Args* args) {
  STELA_CHECK_ARGS(PJRT_Error_GetCode_Args, args, code);
  if (args->error == NULL) return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_Error_GetCode: error is NULL");
  args->code = args->error->code;
  return NULL;
}

/* ---- Events ---- */

typedef struct stela_callback {
  PJRT_Event_OnReadyCallback fn;
  void* arg;
  struct stela_callback* next;
} stela_callback;

struct PJRT_Event {
  atomic_int refs;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  bool ready;
  PJRT_Error* err; /* the final status; NULL = OK */
  stela_callback* callbacks;
};

PJRT_Event* stela_event_new(void) {
  PJRT_Event* ev = calloc(1, sizeof(*ev));
  if (ev == NULL) return NULL;
  atomic_init(&ev->refs, 1);
  pthread_mutex_init(&ev->mu, NULL);
  pthread_cond_init(&ev->cv, NULL);
  return ev;
}

static PJRT_Error* copy_error(const PJRT_Error* err) {
  if (err == NULL) return NULL;
  size_t len;
  const char* msg = error_text(err, &len);
  return stela_error_copy(err->code, msg, len);
}

PJRT_Event* stela_event_ready(const PJRT_Error* err) {
  PJRT_Event* ev = stela_event_new();
  if (ev == NULL) return NULL;
  ev->ready = true;
  ev->err = copy_error(err);
  return ev;
}

static void event_release(PJRT_Event* ev) {
  if (atomic_fetch_sub(&ev->refs, 1) != 1) return;
  stela_error_free(ev->err);
  for (stela_callback* cb = ev->callbacks; cb != NULL;) {
    stela_callback* next = cb->next;
    free(cb);
    cb = next;
  }
  pthread_cond_destroy(&ev->cv);
  pthread_mutex_destroy(&ev->mu);
  free(ev);
}

/* Completes a pending event: wakes waiters and runs the callbacks, each
   with its own copy of the error, outside the lock. */
void stela_event_complete(PJRT_Event* ev, const PJRT_Error* err) {
  pthread_mutex_lock(&ev->mu);
  if (ev->ready) {
    pthread_mutex_unlock(&ev->mu);
    return;
  }
  ev->ready = true;
  ev->err = copy_error(err);
  stela_callback* cbs = ev->callbacks;
  ev->callbacks = NULL;
  pthread_cond_broadcast(&ev->cv);
  pthread_mutex_unlock(&ev->mu);
  while (cbs != NULL) {
    stela_callback* next = cbs->next;
    cbs->fn(copy_error(ev->err), cbs->arg);
    free(cbs);
    cbs = next;
  }
}

PJRT_Error* stela_Event_Destroy(PJRT_Event_Destroy_Args* args) {
  STELA_CHECK_ARGS(PJRT_Event_Destroy_Args, args, event);
  if (args->event != NULL) event_release(args->event);
  return NULL;
}

PJRT_Error* stela_Event_IsReady(PJRT_Event_IsReady_Args* args) {
  STELA_CHECK_ARGS(PJRT_Event_IsReady_Args, args, is_ready);
  PJRT_Event* ev = args->event;
  if (ev == NULL) return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_Event_IsReady: event is NULL");
  pthread_mutex_lock(&ev->mu);
  args->is_ready = ev->ready;
  pthread_mutex_unlock(&ev->mu);
  return NULL;
}

PJRT_Error* stela_Event_Error(PJRT_Event_Error_Args* args) {
  STELA_CHECK_ARGS(PJRT_Event_Error_Args, args, event);
  PJRT_Event* ev = args->event;
  if (ev == NULL) return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_Event_Error: event is NULL");
  pthread_mutex_lock(&ev->mu);
  bool ready = ev->ready;
  pthread_mutex_unlock(&ev->mu);
  if (!ready) return stela_error(PJRT_Error_Code_FAILED_PRECONDITION, "PJRT_Event_Error: the event is not ready yet");
  return copy_error(ev->err);
}

PJRT_Error* stela_Event_Await(PJRT_Event_Await_Args* args) {
  STELA_CHECK_ARGS(PJRT_Event_Await_Args, args, event);
  PJRT_Event* ev = args->event;
  if (ev == NULL) return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_Event_Await: event is NULL");
  pthread_mutex_lock(&ev->mu);
  while (!ev->ready) pthread_cond_wait(&ev->cv, &ev->mu);
  pthread_mutex_unlock(&ev->mu);
  return copy_error(ev->err);
}

PJRT_Error* stela_Event_OnReady(PJRT_Event_OnReady_Args* args) {
  STELA_CHECK_ARGS(PJRT_Event_OnReady_Args, args, user_arg);
  PJRT_Event* ev = args->event;
  if (ev == NULL) return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_Event_OnReady: event is NULL");
  if (args->callback == NULL)
    return stela_error(PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_Event_OnReady: callback is NULL");
  pthread_mutex_lock(&ev->mu);
  if (!ev->ready) {
    stela_callback* cb = malloc(sizeof(*cb));
    if (cb == NULL) {
      pthread_mutex_unlock(&ev->mu);
      return stela_oom();
    }
    cb->fn = args->callback;
    cb->arg = args->user_arg;
    cb->next = ev->callbacks;
    ev->callbacks = cb;
    pthread_mutex_unlock(&ev->mu);
    return NULL;
  }
  pthread_mutex_unlock(&ev->mu);
  /* Already complete: run it now, on this thread, as PJRT allows. */
  args->callback(copy_error(ev->err), args->user_arg);
  return NULL;
}
