/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Registers an enum or flags type of the elements' properties once, from any thread. */
#pragma once

#include <glib-object.h>

/* The type of @values named @name, registered on the first call (kept in @type). */
inline GType
register_enum_once (GType * type, const gchar * name, const GEnumValue * values)
{
  if (g_once_init_enter (type)) {
    GType t = g_enum_register_static (name, values);
    g_once_init_leave (type, t);
  }
  return *type;
}

inline GType
register_flags_once (GType * type, const gchar * name, const GFlagsValue * values)
{
  if (g_once_init_enter (type)) {
    GType t = g_flags_register_static (name, values);
    g_once_init_leave (type, t);
  }
  return *type;
}
