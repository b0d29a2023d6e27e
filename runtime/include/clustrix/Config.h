//===- clustrix/Config.h - Runtime configuration ----------------*- C++ -*-===//
//
// The runtime's settings: read from clustrix.yml (found in the documented order), overridden by
// environment variables and by clustrix::configure() calls. docs/configuration.md is the reference.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_CONFIG_H
#define CLUSTRIX_CONFIG_H

#include <stdexcept>
#include <string>

namespace clustrix {

/// A configuration error, always naming where: file, line and column (1-based; 0 when unknown).
class ConfigError : public std::runtime_error {
public:
  ConfigError(std::string File, int Line, int Column, const std::string &Message);
  const std::string &file() const { return File; }
  int line() const { return Line; }
  int column() const { return Column; }

private:
  std::string File;
  int Line;
  int Column;
};

/// The configuration file the runtime reads, in this order: $CLUSTRIX_CONFIG (which must exist),
/// ./clustrix.yml, $XDG_CONFIG_HOME/clustrix/clustrix.yml (or ~/.config/clustrix/clustrix.yml).
/// Empty when there is none.
std::string findConfigFile();

} // namespace clustrix

#endif // CLUSTRIX_CONFIG_H
