import { lazyTemplate } from './handlebars.js';

/** The name under which the site renders its own error page, for themes without `error.hbs`. */
export const DEFAULT_ERROR_TEMPLATE = '__quire_default_error__';

/** Ghost's markup for its own error page. */
const DEFAULT_ERROR_PAGE = `<!DOCTYPE html>
<html class="no-js" lang="en">
  <head>
    <meta charset="UTF-8" />

    <title>{{statusCode}} — {{message}}</title>

    <meta name="viewport" content="user-scalable=no, width=device-width, initial-scale=1, maximum-scale=1">
    <meta name="mobile-web-app-capable" content="yes" />
    <meta name="apple-mobile-web-app-capable" content="yes" />

    <link rel="stylesheet" href="{{basePath}}public/ghost.min.css?v={{assetHash}}"/>

  </head>
  <body>
    <main role="main" id="main">
      <div class="gh-app">
          <div class="gh-viewport">
              <div class="gh-view">
                <section class="error-content error-404 js-error-container">
                  <section class="error-details">
                    <section class="error-message">
                      <h1 class="error-code">{{statusCode}}</h1>
                      <h2 class="error-description">{{message}}</h2>
                      <a class="error-link" href="{{siteUrl}}">Go to the front page →</a>
                    </section>
                  </section>
                </section>

              </div>
          </div>
      </div>
    </main>
  </body>
</html>
`;

/** The page Ghost renders when the theme has no error template: the same markup, our template. */
export const renderDefaultErrorPage = lazyTemplate(DEFAULT_ERROR_PAGE);
