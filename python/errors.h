// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <stdexcept>

namespace pymig {

/// @brief Bad input from Python: the message names the file or argument, the place and the problem
/// (raised as migsight.InputError, a ValueError).
class InputError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

} // namespace pymig
