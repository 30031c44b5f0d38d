import { elide } from './elide.js';

/**
 * A template (or interface) id as `package:Module:Entity`: the package name when the event carries it
 * (`packageName`), else the name of a `#name:Module:Entity` reference, else the package id cut to its first
 * eight characters (`05c31d5b…:Iou:Iou`). A value without a `:` is returned as it is.
 */
export function shortTemplate(templateId: string, packageName?: string | null): string {
  const first = templateId.indexOf(':');
  if (first < 0) return templateId;
  const pkg = templateId.slice(0, first);
  const rest = templateId.slice(first + 1);
  if (packageName) return `${packageName}:${rest}`;
  if (pkg.startsWith('#')) return `${pkg.slice(1)}:${rest}`;
  return `${elide(pkg, 8, 0)}:${rest}`;
}
