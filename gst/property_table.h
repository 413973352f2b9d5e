/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* An element's properties as one table over a plain struct of their values: each row installs
 * its GParamSpec and reads or writes its field. The element keeps the struct under its object
 * lock (property_table_set_locked / _get_locked) and copies it once per frame. */
#pragma once

#include <gst/gst.h>

template < class Props > struct PropertyRow
{
  /* live: controllable and mutable while playing; mutable_playing: mutable while playing. */
  GParamSpec *(*spec) (GParamFlags live, GParamFlags mutable_playing);
  void (*set) (Props & p, const GValue * v);
  void (*get) (const Props & p, GValue * v);
};

/* Field access for the rows of a table over `Props` (a typedef where the table is): plain
 * values, values cast to the field's type, enums (cast through gint). */
#define VALUE_ROW(kind, field)                                                   \
  [](Props & p, const GValue * v) { p.field = g_value_get_##kind (v); },         \
  [](const Props & p, GValue * v) { g_value_set_##kind (v, p.field); }
#define CAST_ROW(kind, type, field)                                              \
  [](Props & p, const GValue * v) { p.field = (type) g_value_get_##kind (v); },  \
  [](const Props & p, GValue * v) { g_value_set_##kind (v, p.field); }
#define ENUM_ROW(type, field)                                                    \
  [](Props & p, const GValue * v) { p.field = (type) g_value_get_enum (v); },    \
  [](const Props & p, GValue * v) { g_value_set_enum (v, (gint) p.field); }

/* Installs the rows as properties first_id, first_id + 1, ... */
template < class Props, size_t N > void
property_table_install (GObjectClass * klass, const PropertyRow < Props > (&rows)[N],
    guint first_id)
{
  const GParamFlags live = (GParamFlags) (G_PARAM_READWRITE | GST_PARAM_CONTROLLABLE |
      GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS);
  const GParamFlags mutable_playing = (GParamFlags) (G_PARAM_READWRITE |
      GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS);
  for (guint i = 0; i < N; ++i)
    g_object_class_install_property (klass, first_id + i, rows[i].spec (live, mutable_playing));
}

/* set_property / get_property of an element whose rows start at first_id: under the object
 * lock; an id that is not a row is warned about, as GObject expects. */
template < class Props, size_t N > void
property_table_set_locked (GObject * object, Props * props,
    const PropertyRow < Props > (&rows)[N], guint first_id, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  GST_OBJECT_LOCK (object);
  if (prop_id >= first_id && prop_id < first_id + N)
    rows[prop_id - first_id].set (*props, value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  GST_OBJECT_UNLOCK (object);
}

template < class Props, size_t N > void
property_table_get_locked (GObject * object, const Props * props,
    const PropertyRow < Props > (&rows)[N], guint first_id, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GST_OBJECT_LOCK (object);
  if (prop_id >= first_id && prop_id < first_id + N)
    rows[prop_id - first_id].get (*props, value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  GST_OBJECT_UNLOCK (object);
}
