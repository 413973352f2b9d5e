/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Registers an enum or flags type of the elements' properties once, from any thread. */
#pragma once

#include <glib-object.h>

/* The type of @values named @name, registered by @register_static on the first call (kept in
 * @type). */
template < typename Value > GType
register_type_once (GType * type, const gchar * name, const Value * values,
    GType (*register_static) (const gchar *, const Value *))
{
  if (g_once_init_enter (type)) {
    GType t = register_static (name, values);
    g_once_init_leave (type, t);
  }
  return *type;
}

inline GType
register_enum_once (GType * type, const gchar * name, const GEnumValue * values)
{
  return register_type_once (type, name, values, g_enum_register_static);
}

inline GType
register_flags_once (GType * type, const gchar * name, const GFlagsValue * values)
{
  return register_type_once (type, name, values, g_flags_register_static);
}
