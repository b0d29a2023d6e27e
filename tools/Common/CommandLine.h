//===- tools/Common/CommandLine.h - Command lines of the plain tools ------===//
//
// clustrix-devices and clustrix-run parse their arguments with CLI11, so --help, --version and
// every usage error look and behave alike: errors are one line, `TOOL: error: MESSAGE`, a hint
// to --help, and exit status 2. (clustrix++ passes arguments through to the compiler and
// clustrix-rewrite uses LLVM's parser; docs/building.md says why.)
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_TOOLS_COMMANDLINE_H
#define CLUSTRIX_TOOLS_COMMANDLINE_H

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace clustrix {
namespace tools {

/// The exit status of every usage and configuration error.
constexpr int ExitUsage = 2;

/// Prints a usage error as the tools all do and returns ExitUsage.
inline int usageError(const std::string &Tool, const std::string &Message) {
  std::cerr << Tool << ": error: " << Message << "\n"
            << "Try '" << Tool << " --help'.\n";
  return ExitUsage;
}

/// CLI11's help layout with the usage line a tool gives, for tools with operands CLI11 does not
/// parse (clustrix-run's PROGRAM [ARGS...]).
class UsageFormatter : public CLI::Formatter {
public:
  explicit UsageFormatter(std::string Usage) : Usage(std::move(Usage)) {}
  std::string make_usage(const CLI::App *App, std::string Name) const override {
    return Usage.empty() ? CLI::Formatter::make_usage(App, std::move(Name)) : "Usage: " + Usage + "\n";
  }

private:
  std::string Usage;
};

/// Sets up \p App for \p Tool: --version prints "TOOL VERSION", --help the \p Usage line (or
/// CLI11's), the description, the options and \p Footer.
inline void configureApp(CLI::App &App, const std::string &Tool, const std::string &Version,
                         const std::string &Usage = "", const std::string &Footer = "") {
  App.name(Tool);
  App.set_version_flag("--version", Tool + " " + Version, "show the version and exit");
  App.set_help_flag("-h,--help", "show this help and exit");
  auto Formatter = std::make_shared<UsageFormatter>(Usage);
  Formatter->column_width(24);
  App.formatter(Formatter);
  if (!Footer.empty())
    App.footer(Footer);
}

/// Parses the command line: nullopt to go on, or the status to exit with (0 after --help or
/// --version, ExitUsage after an error).
inline std::optional<int> parse(CLI::App &App, const std::string &Tool, int Argc, char **Argv) {
  try {
    App.parse(Argc, Argv);
  } catch (const CLI::CallForHelp &) {
    std::cout << App.help();
    return 0;
  } catch (const CLI::CallForVersion &V) {
    std::cout << V.what() << "\n";
    return 0;
  } catch (const CLI::ParseError &E) {
    return usageError(Tool, E.what());
  }
  return std::nullopt;
}

} // namespace tools
} // namespace clustrix

#endif // CLUSTRIX_TOOLS_COMMANDLINE_H
